package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// This file is the plan-time check of the folder a generated collection is
// created in (flipbook_template_collection, flipbook_catalog).

// maxFolderDepth is the spec's limit on folder levels.
const maxFolderDepth = 3

// folderProblems lists every rule of the spec's folder parameter that folder
// breaks; "" (the root folder) breaks none.
func folderProblems(folder string) []string {
	if folder == "" {
		return nil
	}
	var problems []string
	// Spec, createFromTemplate folder: "no leading or trailing `/`".
	if strings.HasPrefix(folder, "/") || strings.HasSuffix(folder, "/") {
		problems = append(problems, `must not begin or end with "/"`)
	}
	names := strings.Split(strings.Trim(folder, "/"), "/")
	// Spec, createFromTemplate folder: "a path of up to three levels separated by `/`".
	if len(names) > maxFolderDepth {
		problems = append(problems, fmt.Sprintf(`must have at most %d levels separated by "/", got %d`, maxFolderDepth, len(names)))
	}
	// Spec, createFromTemplate folder: "names use English letters, digits and
	// spaces and begin and end with a letter or digit" (an empty name begins
	// with neither).
	for i, name := range names {
		switch {
		case name == "":
			problems = append(problems, fmt.Sprintf(`level %d is empty ("//" is not allowed)`, i+1))
		case !folderName.MatchString(name):
			problems = append(problems, fmt.Sprintf("level %d name %q may contain only English letters, digits and spaces", i+1, name))
		case !alnum(name[0]) || !alnum(name[len(name)-1]):
			problems = append(problems, fmt.Sprintf("level %d name %q must begin and end with a letter or digit", i+1, name))
		}
	}
	return problems
}

var folderName = regexp.MustCompile(`^[A-Za-z0-9 ]+$`)

func alnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// folderValidator applies folderProblems to a string attribute.
type folderValidator struct{}

func (folderValidator) Description(context.Context) string {
	return "a folder path of at most three levels separated by \"/\", without a leading or trailing \"/\"; " +
		"each name uses English letters, digits and spaces and begins and ends with a letter or digit"
}

func (v folderValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (folderValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, p := range folderProblems(req.ConfigValue.ValueString()) {
		addAttrError(&resp.Diagnostics, req.Path, "Invalid Folder",
			fmt.Sprintf("The folder %q %s. A folder is a path of up to three names separated by \"/\", such as \"Marketing/2026/Spring\".",
				req.ConfigValue.ValueString(), p))
	}
}
