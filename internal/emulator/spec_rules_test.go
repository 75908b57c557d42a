package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/flipbook/terraform-provider-flipbook/internal/specrules"
)

// specRule is one entry of the table both test suites read.
type specRule = specrules.Rule

func loadSpecRules(t *testing.T) []specRule {
	t.Helper()
	rules, err := specrules.Load()
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestSpecInputRules sends every input of the shared table: an input the spec
// allows must answer 20 (a refusal is a failure, never a skip), one it
// forbids the spec's code and, where the spec gives them, its messages.
func TestSpecInputRules(t *testing.T) {
	_, c := startTest(t, nil)
	for _, r := range loadSpecRules(t) {
		t.Run(r.ID, func(t *testing.T) {
			c := c.with(t)
			env := sendSpecInput(t, c, r.Action, r.Allowed)
			if env.Code != 20 {
				t.Errorf("the spec allows %v (%s), but the emulator answered %d %q: %s", r.Allowed, r.Spec, env.Code, env.Status, env.Data)
			}
			if r.Forbidden == nil {
				return
			}
			env = sendSpecInput(t, c, r.Action, r.Forbidden)
			if env.Code != r.Code {
				t.Fatalf("the spec forbids %v (%s) with code %d, but the emulator answered %d %q: %s",
					r.Forbidden, r.Spec, r.Code, env.Code, env.Status, env.Data)
			}
			for _, want := range r.Errors {
				if !slices.Contains(env.errors(), want) {
					t.Errorf("data.errors %q lacks the spec's message %q", env.errors(), want)
				}
			}
		})
	}
}

// sendSpecInput sends one table input: the action's other required
// parameters are filled with a valid value of the demo fixture.
func sendSpecInput(t *testing.T, c *testClient, action string, in map[string]any) envelope {
	t.Helper()
	p := map[string]string{"action": action}
	jsonText := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	scalar := func(v any) string {
		if s, ok := v.(string); ok {
			return s
		}
		return jsonText(v)
	}
	switch action {
	case "collection.createFromTemplate", "collection.createCatalog":
		p["sections"] = `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]}]`
		if action == "collection.createCatalog" {
			p["sections"] = `[{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}],"templates":[{"templateHash":"tpl-product"}]}]`
		}
		for k, v := range in {
			if k == "sections" {
				p[k] = jsonText(v)
			} else {
				p[k] = scalar(v)
			}
		}
		return c.post(p)
	case "collection.setPermissions":
		p["collectionHash"] = "pub-private-1"
		p["permissions"] = jsonText(map[string]any{"permissions": in["permissions"]})
		return c.get(p)
	case "collection.getEmbed":
		p["collectionHash"] = "pub-private-1"
		for k, v := range in {
			p[k] = scalar(v)
		}
		return c.get(p)
	case "flipbook.add", "collection.setLogo":
		p["collectionHash"] = "pub-private-1"
		var files []filePart
		for k, v := range in {
			if k == "file" {
				files = append(files, specFile(t, scalar(v)))
				continue
			}
			p[k] = scalar(v)
		}
		return c.upload(p, files...)
	}
	t.Fatalf("the table names action %q, which this test does not know", action)
	return envelope{}
}

// specFile is a generated file of the table's kinds.
func specFile(t *testing.T, kind string) filePart {
	t.Helper()
	switch {
	case kind == "png":
		return filePart{"logo.png", strings.NewReader("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")}
	case kind == "pdf-over-100mb":
		return filePart{"big.pdf", io.MultiReader(strings.NewReader("%PDF-1.4\n"), io.LimitReader(zeros{}, defaultMaxUploadBytes))}
	case strings.HasPrefix(kind, "pdf:"):
		var n int
		if _, err := fmt.Sscanf(kind, "pdf:%d", &n); err != nil {
			t.Fatal(err)
		}
		return filePart{"doc.pdf", bytes.NewReader(minimalPDF(n))}
	}
	t.Fatalf("unknown file kind %q", kind)
	return filePart{}
}
