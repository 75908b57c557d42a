package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Validators more than one object uses. Where the spec is silent the
// provider only warns ("guess" validators), says the warning is a guess, and
// lets the service answer at apply time. Every validator skips values that
// are not known yet.

// nonEmptyString refuses "" for a top-level request parameter. The provider
// sends an empty string as no parameter at all, and the spec answers an
// absent required parameter with code 30 ("an action's required parameter
// absent (`collectionHash`, `flipbookHash`, ...)"); for an optional one
// (title, description) absence means the service's default, not "".
func nonEmptyString() []validator.String {
	return []validator.String{stringvalidator.LengthAtLeast(1)}
}

// emptyStringWarning warns about "" inside a JSON parameter (sections): the
// value is sent as "", and the spec does not say whether the service takes it.
func emptyStringWarning() []validator.String {
	return []validator.String{guessString{}}
}

type guessString struct{}

var _ validator.String = guessString{}

func (guessString) Description(context.Context) string {
	return "an empty string gets a warning: the spec does not say whether the service accepts it"
}

func (v guessString) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (guessString) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() != "" {
		return
	}
	addAttrWarning(&resp.Diagnostics, req.Path, "Empty Value May Be Refused",
		"This value is empty. The spec does not say whether the service accepts an empty value here, so this is a guess "+
			"and the plan goes ahead; if the service refuses it, the apply fails with its answer.")
}

// emptyListWarning warns, without refusing, about an empty list: detail says
// what the spec leaves open and what is sent.
func emptyListWarning(detail string) validator.List {
	return guessEmptyList{detail: detail}
}

type guessEmptyList struct {
	detail string
}

var _ validator.List = guessEmptyList{}

func (v guessEmptyList) Description(context.Context) string {
	return "an empty list gets a warning: " + v.detail
}

func (v guessEmptyList) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v guessEmptyList) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || len(req.ConfigValue.Elements()) > 0 {
		return
	}
	addAttrWarning(&resp.Diagnostics, req.Path, "List May Be Refused", v.detail)
}

// int64Warning and float64Warning warn, without refusing, when a number is
// below min: detail says what the spec leaves open.
func int64Warning(minValue int64, detail string) validator.Int64 {
	return guessBelow{min: float64(minValue), detail: detail}
}

func float64Warning(minValue float64, detail string) validator.Float64 {
	return guessBelow{min: minValue, detail: detail}
}

type guessBelow struct {
	min    float64
	detail string
}

var (
	_ validator.Int64   = guessBelow{}
	_ validator.Float64 = guessBelow{}
)

func (v guessBelow) Description(context.Context) string {
	return fmt.Sprintf("values below %g get a warning: %s", v.min, v.detail)
}

func (v guessBelow) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v guessBelow) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if !req.ConfigValue.IsNull() && !req.ConfigValue.IsUnknown() {
		v.check(req.Path, float64(req.ConfigValue.ValueInt64()), &resp.Diagnostics)
	}
}

func (v guessBelow) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if !req.ConfigValue.IsNull() && !req.ConfigValue.IsUnknown() {
		v.check(req.Path, req.ConfigValue.ValueFloat64(), &resp.Diagnostics)
	}
}

func (v guessBelow) check(p path.Path, n float64, diags *diag.Diagnostics) {
	if n >= v.min {
		return
	}
	addAttrWarning(diags, p, "Value May Not Do What You Expect", fmt.Sprintf("The value %g is below %g. %s", n, v.min, v.detail))
}

// addAttrError and addAttrWarning name the attribute in the detail too:
// Terraform shows nested attributes of a list only by their resource block,
// so the path is the one pointer a user gets.
func addAttrError(diags *diag.Diagnostics, p path.Path, summary, detail string) {
	diags.AddAttributeError(p, summary, "Attribute "+p.String()+": "+detail)
}

func addAttrWarning(diags *diag.Diagnostics, p path.Path, summary, detail string) {
	diags.AddAttributeWarning(p, summary, "Attribute "+p.String()+": "+detail)
}
