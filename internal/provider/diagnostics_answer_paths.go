package provider

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// Rules the spec does not state are left to the service; its answer is shown
// on the attribute it names. Spec, collection.createFromTemplate: a
// validation failure is "code 40 with `data.message` and `data.errors`
// (string array, entries prefixed by the field path ...)". The spec does not
// spell the prefix; the reading here is "sections[0].templates[1].templateHash:
// message", and an entry that does not read so is shown without a path.

// apiFieldNames maps the spec's request field names to the schema's.
var apiFieldNames = map[string]string{
	"folder": "folder", "title": "title", "sections": "sections",
	"sectionType": "type", "pageBreak": "page_break", "templates": "templates", "templateHash": "template_hash",
	"templatePages": "pages", "elements": "elements", "name": "name", "pageCount": "page_count",
	"sources": "sources", "groupBy": "group_by", "sortBy": "sort_by", "field": "field",
	"filters": "filters", "mode": "mode", "match": "match", "conditions": "conditions", "operator": "operator",
	"startPage": "start_page", "width": "width", "height": "height", "responsive": "responsive",
}

// answerPrefix is "path: message" with a path of dotted names and indexes.
var answerPrefix = regexp.MustCompile(`^([A-Za-z]+(?:\[\d+\])*(?:\.[A-Za-z]+(?:\[\d+\])*)*): (.+)$`)

var answerSegment = regexp.MustCompile(`([A-Za-z]+)((?:\[\d+\])*)`)

// answerPath turns the field path of a generation answer into the schema's
// attribute path, as deep as the two agree: `value` and `order` (one field
// for two attributes) and the catalog's templates list (one template_hash)
// stop at their parent.
func answerPath(apiPath string, catalog bool) (path.Path, bool) {
	var p path.Path
	started := false
	for _, seg := range strings.Split(apiPath, ".") {
		m := answerSegment.FindStringSubmatch(seg)
		if m == nil || m[0] != seg {
			return p, started
		}
		name, ok := apiFieldNames[m[1]]
		if !ok {
			return p, started
		}
		if catalog && started && m[1] == "templates" {
			return p.AtName("template_hash"), true
		}
		if !started {
			p, started = path.Root(name), true
		} else {
			p = p.AtName(name)
		}
		for _, idx := range strings.Split(strings.Trim(m[2], "[]"), "][") {
			if idx == "" {
				continue
			}
			i, err := strconv.Atoi(idx)
			if err != nil {
				return p, true
			}
			p = p.AtListIndex(i)
		}
	}
	return p, started
}

// addGenerationError reports a failed createFromTemplate / createCatalog:
// each validation message the service prefixed with a field path is shown on
// that attribute; anything else as addAPIError does.
func addGenerationError(diags *diag.Diagnostics, summary, doing string, err error, catalog bool) {
	if !placeableAnswer(err, catalog) {
		addAPIError(diags, summary, doing, err)
		return
	}
	addAnswerErrors(diags, summary, doing, err, catalog)
}

// placeableAnswer says whether err is a validation answer with at least one
// message whose field path names an attribute.
func placeableAnswer(err error, catalog bool) bool {
	var ae *apiclient.APIError
	if !errors.As(err, &ae) {
		return false
	}
	for _, msg := range ae.Errors {
		if m := answerPrefix.FindStringSubmatch(msg); m != nil {
			if _, ok := answerPath(m[1], catalog); ok {
				return true
			}
		}
	}
	return false
}

// addAnswerErrors shows each message of a validation answer on the attribute
// its field path names, the rest without a path.
func addAnswerErrors(diags *diag.Diagnostics, summary, doing string, err error, catalog bool) {
	var ae *apiclient.APIError
	if !errors.As(err, &ae) {
		addAPIError(diags, summary, doing, err)
		return
	}
	var unplaced []string
	for _, msg := range ae.Errors {
		m := answerPrefix.FindStringSubmatch(msg)
		if m == nil {
			unplaced = append(unplaced, msg)
			continue
		}
		at, ok := answerPath(m[1], catalog)
		if !ok {
			unplaced = append(unplaced, msg)
			continue
		}
		diags.AddAttributeError(at, summary, fmt.Sprintf(
			"The service refused this value while the provider was %s: %s (code %d, %q). Correct it and apply again.",
			doing, msg, ae.Code, ae.Message))
	}
	if len(unplaced) > 0 {
		diags.AddError(summary, apiErrorDetail(doing, &apiclient.APIError{Code: ae.Code, Status: ae.Status, Action: ae.Action,
			Message: ae.Message, Errors: unplaced}))
	}
}
