package apiclient

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Vectors computed outside Go with `printf '%s' '<secret><canonical>' | md5sum`.
func TestSignHandVectors(t *testing.T) {
	tests := []struct {
		name      string
		secret    string
		params    map[string]string
		canonical string
		md5       string
	}{
		{
			name:   "plain read, signature parameter ignored",
			secret: "secret",
			params: map[string]string{
				"collectionHash": "abc", "apiKey": "k1", "action": "collection.getCollection",
				"signature": "must-not-be-signed",
			},
			canonical: "actioncollection.getCollectionapiKeyk1collectionHashabc",
			md5:       "6472ef8669c6a8878562d14248782da0",
		},
		{
			name:   "non-ASCII values are signed as UTF-8 text, not percent-encoded",
			secret: "sëcret",
			params: map[string]string{
				"title": "Frühling 春", "folder": "Marketing/2026", "apiKey": "démo-ключ",
				"action": "collection.createFromTemplate",
			},
			canonical: "actioncollection.createFromTemplateapiKeydémo-ключfolderMarketing/2026titleFrühling 春",
			md5:       "16b0fb1b0371ecf8be25e7e5a31e6961",
		},
		{
			name:   "permissions JSON is one value, signed exactly as sent",
			secret: "demo-secret",
			params: map[string]string{
				"action": "collection.setPermissions", "apiKey": "demo-key", "collectionHash": "pub-private-1",
				"permissions": `{"permissions":[{"type":"teammate","group":"Sales"},{"type":"teammate","email":"ana@example.com","notifyViaEmail":true}]}`,
			},
			canonical: `actioncollection.setPermissionsapiKeydemo-keycollectionHashpub-private-1permissions{"permissions":[{"type":"teammate","group":"Sales"},{"type":"teammate","email":"ana@example.com","notifyViaEmail":true}]}`,
			md5:       "e99795ba81c31e249e10a3c0d2743e72",
		},
		{
			name:   "empty values still contribute their key",
			secret: "s3cret",
			params: map[string]string{
				"action": "flipbook.add", "apiKey": "k-123", "callback": "cb", "collectionHash": "c1",
				"description": "", "fileUrl": "https://example.com/m.pdf", "format": "jsonp", "title": "Manual",
			},
			canonical: "actionflipbook.addapiKeyk-123callbackcbcollectionHashc1descriptionfileUrlhttps://example.com/m.pdfformatjsonptitleManual",
			md5:       "158e860bef3be80e738f939a9ea066ee",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CanonicalString(tt.params); got != tt.canonical {
				t.Errorf("CanonicalString:\n got %s\nwant %s", got, tt.canonical)
			}
			if got := Sign(tt.secret, tt.params); got != tt.md5 {
				t.Errorf("Sign = %s, want %s", got, tt.md5)
			}
		})
	}
}

// The sections JSON the client sends, and so signs, has a fixed shape;
// the md5 is from printf | md5sum over secret + canonical string.
func TestSectionsJSONAndItsSignature(t *testing.T) {
	sections := []Section{
		{
			Type:      SectionStatic,
			Templates: []TemplateRef{{TemplateHash: "tpl-cover", Pages: []int{0, 1}}},
			Elements: []Element{
				{Name: "headline", Value: String("Spring & <2026>")},
				{Name: "gallery", Value: List("https://example.com/a.jpg?x=1&y=2")},
			},
		},
		{Type: SectionBlank, PageCount: new(2)},
	}
	js, err := MarshalSections(sections)
	if err != nil {
		t.Fatal(err)
	}
	wantJS := `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover","templatePages":[0,1]}],"elements":[{"name":"headline","value":"Spring & <2026>"},{"name":"gallery","value":["https://example.com/a.jpg?x=1&y=2"]}]},{"sectionType":"blank","pageCount":2}]`
	if js != wantJS {
		t.Fatalf("sections JSON:\n got %s\nwant %s", js, wantJS)
	}
	params := map[string]string{"action": ActionCreateFromTemplate, "apiKey": "demo-key", "sections": js, "title": "Spring brochure"}
	if got, want := Sign("demo-secret", params), "b60fa8774344458e0224fd1c28ab658e"; got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
}

func TestMarshalFeedSectionAndPermissions(t *testing.T) {
	feed := []Section{{
		Type:      SectionFeed,
		Sources:   []SourceRef{{SourceHash: "feed-shoes"}},
		Templates: []TemplateRef{{TemplateHash: "tpl-product"}},
		GroupBy:   []GroupBy{{Field: "brand", PageBreak: true}},
		SortBy:    []SortBy{{Field: "price", Order: String("desc")}, {Field: "size", Order: List("S", "M", "L")}},
		Filters: []FilterBlock{{Mode: "include", Match: "any", Conditions: []Condition{
			{Field: "price", Operator: "between", Value: List("10", "99.5")},
			{Field: "brand", Operator: "contains", Value: String("Ac")},
		}}},
	}}
	js, err := MarshalSections(feed)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"sectionType":"feed","templates":[{"templateHash":"tpl-product"}],"sources":[{"sourceHash":"feed-shoes"}],"groupBy":[{"field":"brand","pageBreak":true}],"sortBy":[{"field":"price","order":"desc"},{"field":"size","order":["S","M","L"]}],"filters":[{"mode":"include","match":"any","conditions":[{"field":"price","operator":"between","value":["10","99.5"]},{"field":"brand","operator":"contains","value":"Ac"}]}]}]`
	if js != want {
		t.Errorf("feed sections:\n got %s\nwant %s", js, want)
	}

	for _, tt := range []struct {
		perms []Permission
		want  string
	}{
		{nil, `{"permissions":[]}`},
		{[]Permission{}, `{"permissions":[]}`},
		{
			[]Permission{{Type: PermissionOTP, Email: "a@b.co"}, {Type: PermissionSSO}, {Type: PermissionTeammate, Group: "Sales", NotifyViaEmail: true}},
			`{"permissions":[{"type":"otp","email":"a@b.co"},{"type":"sso"},{"type":"teammate","group":"Sales","notifyViaEmail":true}]}`,
		},
	} {
		got, err := MarshalPermissions(tt.perms)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("MarshalPermissions(%v) = %s, want %s", tt.perms, got, tt.want)
		}
	}
}

var hexMD5 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// FuzzCanonicalString checks the signer's invariants on arbitrary
// parameters: order independence, `signature` excluded, every other key
// and value present in sorted order, lowercase 32-digit hex.
func FuzzCanonicalString(f *testing.F) {
	f.Add("action", "collection.getCollection", "apiKey", "k", "collectionHash", "abc", "secret")
	f.Add("title", "Frühling 春", "folder", "a/b", "signature", "x", "s")
	f.Add("permissions", `{"permissions":[]}`, "a", "", "b", "=&?", "")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, k3, v3, secret string) {
		params := map[string]string{}
		var order []string
		for _, kv := range [][2]string{{k1, v1}, {k2, v2}, {k3, v3}} {
			if _, dup := params[kv[0]]; !dup {
				order = append(order, kv[0])
			}
			params[kv[0]] = kv[1]
		}
		canon := CanonicalString(params)

		// Rebuilding the map in reverse insertion order changes nothing.
		rev := map[string]string{}
		for i := len(order) - 1; i >= 0; i-- {
			rev[order[i]] = params[order[i]]
		}
		if CanonicalString(rev) != canon {
			t.Fatal("canonical string depends on insertion order")
		}

		// Walk the sorted keys: the string is exactly their concatenation.
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range params {
				if k != "signature" && !yield(k) {
					return
				}
			}
		})
		rest := canon
		for _, k := range keys {
			if !strings.HasPrefix(rest, k+params[k]) {
				t.Fatalf("key %q and its value not next in %q", k, canon)
			}
			rest = rest[len(k)+len(params[k]):]
		}
		if rest != "" {
			t.Fatalf("unexpected trailing text %q", rest)
		}

		// A signature parameter never changes the result.
		withSig := map[string]string{"signature": v1 + "x"}
		for k, v := range params {
			if k != "signature" {
				withSig[k] = v
			}
		}
		if CanonicalString(withSig) != canon {
			t.Fatal("signature parameter leaked into the canonical string")
		}
		if s := Sign(secret, params); !hexMD5.MatchString(s) {
			t.Fatalf("Sign = %q, not lowercase 32-digit hex", s)
		}
	})
}

func BenchmarkSign(b *testing.B) {
	params := map[string]string{
		"action": ActionCreateCatalog, "apiKey": "demo-key", "title": "Shoes 2026", "folder": "Catalogs",
		"sections": strings.Repeat(`{"sectionType":"feed","sources":[{"sourceHash":"feed-shoes"}]},`, 20),
	}
	b.ReportAllocs()
	for b.Loop() {
		Sign("demo-secret", params)
	}
}
