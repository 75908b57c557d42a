package apiclient

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// Every operation sends the right method to the right base address with
// exactly the expected parameters, correctly signed.
func TestOperationRequestShapes(t *testing.T) {
	var answer string
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, answer)
	})
	c, _ := newTestClient(t, f, nil)
	ctx := t.Context()
	pdf := "%PDF-1.7 fake body"

	tests := []struct {
		name        string
		action      string
		answer      string
		call        func() (any, error)
		method      string
		path        string
		contentType string
		params      map[string]string // besides action, apiKey, signature
		file        string
		fileType    string
		want        any
	}{
		{
			name:   "createFromTemplate",
			action: ActionCreateFromTemplate,
			answer: okEnvelope(`{"collectionHash":"new-1"}`),
			call: func() (any, error) {
				return c.CreateFromTemplate(ctx, CreateFromTemplateInput{
					Sections: []Section{{Type: SectionStatic, Templates: []TemplateRef{{TemplateHash: "tpl-cover"}}}},
					Title:    "Spring & co", Folder: "Marketing/2026",
				})
			},
			method: http.MethodPost, path: "/api/v1/", contentType: "application/x-www-form-urlencoded",
			params: map[string]string{
				"sections": `[{"sectionType":"static","templates":[{"templateHash":"tpl-cover"}]}]`,
				"title":    "Spring & co", "folder": "Marketing/2026",
			},
			want: "new-1",
		},
		{
			name:   "createCatalog",
			action: ActionCreateCatalog,
			answer: okEnvelope(`{"collectionHash":"cat-1"}`),
			call: func() (any, error) {
				return c.CreateCatalog(ctx, CreateCatalogInput{Sections: []Section{{Type: SectionFeed,
					Sources: []SourceRef{{SourceHash: "feed-shoes"}}, Templates: []TemplateRef{{TemplateHash: "tpl-product"}}}}})
			},
			method: http.MethodPost, path: "/api/v1/", contentType: "application/x-www-form-urlencoded",
			params: map[string]string{
				"sections": `[{"sectionType":"feed","templates":[{"templateHash":"tpl-product"}],"sources":[{"sourceHash":"feed-shoes"}]}]`,
			},
			want: "cat-1",
		},
		{
			name:   "getCollection",
			action: ActionGetCollection,
			answer: okEnvelope(`{"collectionHash":"c-1","collectionStatus":"published","collectionPageCount":"3"}`),
			call:   func() (any, error) { return c.GetCollection(ctx, "c-1") },
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1"},
			want:   &Collection{CollectionHash: "c-1", CollectionStatus: "published", CollectionPageCount: NewInt(3)},
		},
		{
			name:   "getPermissions",
			action: ActionGetPermissions,
			answer: okEnvelope(`{"permissions":[{"type":"sso"},{"type":"teammate","group":"Sales"}]}`),
			call:   func() (any, error) { return c.GetPermissions(ctx, "c-1") },
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1"},
			want:   []Permission{{Type: "sso"}, {Type: "teammate", Group: "Sales"}},
		},
		{
			name:   "setPermissions",
			action: ActionSetPermissions,
			answer: okEnvelope(`{"permissions":[{"type":"otp","email":"ana@example.com"}]}`),
			call: func() (any, error) {
				return c.SetPermissions(ctx, "c-1", []Permission{{Type: "otp", Email: "ana@example.com", NotifyViaEmail: true}})
			},
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1",
				"permissions": `{"permissions":[{"type":"otp","email":"ana@example.com","notifyViaEmail":true}]}`},
			want: []Permission{{Type: "otp", Email: "ana@example.com"}},
		},
		{
			name:   "setPermissions empty list",
			action: ActionSetPermissions,
			answer: okEnvelope(`{"permissions":[]}`),
			call:   func() (any, error) { return c.SetPermissions(ctx, "c-1", nil) },
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1", "permissions": `{"permissions":[]}`},
			want:   []Permission{},
		},
		{
			name:   "getEmbed",
			action: ActionGetEmbed,
			answer: okEnvelope(`{"embedCode":"<iframe src=\"x\"></iframe>"}`),
			call: func() (any, error) {
				return c.GetEmbed(ctx, EmbedInput{CollectionHash: "c-1", Responsive: new(true), StartPage: new(3.0), Width: new(640.5)})
			},
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1", "responsive": "true", "startPage": "3", "width": "640.5"},
			want:   `<iframe src="x"></iframe>`,
		},
		{
			name:   "downloadHTML",
			action: ActionDownloadHTML,
			answer: okEnvelope(`{"status":"COMPLETE","resourceUrl":"https://x/p.zip"}`),
			call:   func() (any, error) { return c.DownloadHTML(ctx, "c-1") },
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1"},
			want:   &DownloadPackage{Status: "COMPLETE", ResourceURL: "https://x/p.zip"},
		},
		{
			name:   "getStats with xml",
			action: ActionGetStats,
			answer: `<response><code>20</code><status>OK</status><data><views>7</views><time_spent>12.4</time_spent><downloads>0</downloads></data></response>`,
			call: func() (any, error) {
				return c.GetStats(ctx, "c-1", "f-1", ResponseFormat{Format: FormatXML})
			},
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1", "flipbookHash": "f-1", "format": "xml"},
			want:   &FlipbookStats{Views: NewInt(7), TimeSpent: NewInt(12), Downloads: NewInt(0)},
		},
		{
			name:   "user.getStats",
			action: ActionUserGetStats,
			answer: okEnvelope(`{"impressions":"10","views":5,"time_spent":"60","downloads":1,"api_uploads_left":"99"}`),
			call:   func() (any, error) { return c.GetUserStats(ctx) },
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{},
			want: &UserStats{Impressions: NewInt(10), Views: NewInt(5), TimeSpent: NewInt(60), Downloads: NewInt(1),
				APIUploadsLeft: NewInt(99)},
		},
		{
			name:   "deleteBackgroundImage with jsonp",
			action: ActionDeleteBackgroundImage,
			answer: `cb(` + okEnvelope(`{"collectionHash":"c-1","settings":{"backgroundColor":"#000000"}}`) + `);`,
			call: func() (any, error) {
				return c.DeleteBackgroundImage(ctx, "c-1", ResponseFormat{Format: FormatJSONP, Callback: "cb"})
			},
			method: http.MethodGet, path: "/api/v1/",
			params: map[string]string{"collectionHash": "c-1", "format": "jsonp", "callback": "cb"},
			want:   &Collection{CollectionHash: "c-1", Settings: Settings{BackgroundColor: "#000000"}},
		},
		{
			name:   "setLogo with a file",
			action: ActionSetLogo,
			answer: okEnvelope(`{"collectionHash":"c-1","settings":{"logoImage":"logo-1"}}`),
			call: func() (any, error) {
				return c.SetLogo(ctx, SetLogoInput{CollectionHash: "c-1", LogoURL: "https://example.com",
					File: &Upload{Name: "/tmp/dir/logo.png", Body: strings.NewReader("PNGDATA")}})
			},
			method: http.MethodPost, path: "/upload/v1/", contentType: "multipart/form-data",
			params: map[string]string{"collectionHash": "c-1", "logoUrl": "https://example.com"},
			file:   "PNGDATA", fileType: "image/png",
			want: &Collection{CollectionHash: "c-1", Settings: Settings{LogoImage: "logo-1"}},
		},
		{
			name:   "setLogo by URL",
			action: ActionSetLogo,
			answer: okEnvelope(`{"collectionHash":"c-1","settings":{"logoImage":"logo-2"}}`),
			call: func() (any, error) {
				return c.SetLogo(ctx, SetLogoInput{CollectionHash: "c-1", FileURL: "https://example.com/l.png",
					ResponseFormat: ResponseFormat{Format: FormatJSON}})
			},
			method: http.MethodPost, path: "/upload/v1/", contentType: "multipart/form-data",
			params: map[string]string{"collectionHash": "c-1", "fileUrl": "https://example.com/l.png", "format": "json"},
			want:   &Collection{CollectionHash: "c-1", Settings: Settings{LogoImage: "logo-2"}},
		},
		{
			name:   "flipbook.add with a file",
			action: ActionAddFlipbook,
			answer: okEnvelope(`{"flipbookHash":"f-9","flipbookTitle":"Manual","flipbookPageCount":"12",
				"extension":"pdf","convertStatus":"PROCESSING"}`),
			call: func() (any, error) {
				return c.AddFlipbook(ctx, AddFlipbookInput{CollectionHash: "c-1", Title: "Manual", Description: "Für alle",
					File: &Upload{Name: "manual.pdf", Body: strings.NewReader(pdf), Size: int64(len(pdf))}})
			},
			method: http.MethodPost, path: "/upload/v1/", contentType: "multipart/form-data",
			params: map[string]string{"collectionHash": "c-1", "title": "Manual", "description": "Für alle"},
			file:   pdf, fileType: "application/pdf",
			want: &Flipbook{FlipbookHash: "f-9", FlipbookTitle: "Manual", FlipbookPageCount: NewInt(12), Extension: "pdf",
				ConvertStatus: "PROCESSING"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer = tt.answer
			before := f.count()
			got, err := tt.call()
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("result\n got %#v\nwant %#v", got, tt.want)
			}
			// flipbook.add reads the collection's items first, and a
			// notifying setPermissions the access list (policy.go); every
			// other operation is one request.
			var sent []captured
			for _, r := range f.requests()[before:] {
				if a := r.Params.Get("action"); a == tt.action {
					sent = append(sent, r)
				} else if (a != ActionGetCollection || tt.action != ActionAddFlipbook) &&
					(a != ActionGetPermissions || tt.action != ActionSetPermissions) {
					t.Errorf("unexpected %s request", a)
				}
			}
			if len(sent) != 1 {
				t.Fatalf("server saw %d %s requests, want 1", len(sent), tt.action)
			}
			r := sent[0]
			if r.Method != tt.method || r.Path != tt.path || r.ContentType != tt.contentType {
				t.Errorf("sent %s %s (%q), want %s %s (%q)", r.Method, r.Path, r.ContentType, tt.method, tt.path, tt.contentType)
			}
			if !r.SigOK {
				t.Errorf("signature %q does not verify", r.Params.Get("signature"))
			}
			if r.UserAgent != "flipbook-test/1.0" {
				t.Errorf("User-Agent = %q", r.UserAgent)
			}
			wantParams := map[string]string{"apiKey": testKey, "action": tt.action}
			for k, v := range tt.params {
				wantParams[k] = v
			}
			gotParams := map[string]string{}
			for k, vs := range r.Params {
				if len(vs) != 1 {
					t.Errorf("param %s sent %d times", k, len(vs))
				}
				if k != "signature" {
					gotParams[k] = vs[0]
				}
			}
			if !reflect.DeepEqual(gotParams, wantParams) {
				t.Errorf("params\n got %v\nwant %v", gotParams, wantParams)
			}
			if string(r.File) != tt.file || r.FileType != tt.fileType {
				t.Errorf("file part %q (%s), want %q (%s)", r.File, r.FileType, tt.file, tt.fileType)
			}
		})
	}
}

func TestLocalArgumentChecksSpendNoCall(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{}`))
	})
	c, _ := newTestClient(t, f, nil)
	ctx := t.Context()
	checks := map[string]error{}
	_, checks["getCollection without hash"] = c.GetCollection(ctx, "")
	_, checks["create without sections"] = c.CreateFromTemplate(ctx, CreateFromTemplateInput{})
	_, checks["jsonp without callback"] = c.GetStats(ctx, "c", "f", ResponseFormat{Format: FormatJSONP})
	_, checks["unknown format"] = c.GetStats(ctx, "c", "f", ResponseFormat{Format: "yaml"})
	_, checks["upload without file or url"] = c.AddFlipbook(ctx, AddFlipbookInput{CollectionHash: "c"})
	_, tooLarge := c.AddFlipbook(ctx, AddFlipbookInput{CollectionHash: "c",
		File: &Upload{Name: "big.pdf", Body: strings.NewReader(""), Size: MaxUploadBytes + 1}})
	for name, err := range checks {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if !IsFileTooLarge(tooLarge) {
		t.Errorf("oversized upload: %v, want code 34", tooLarge)
	}
	if n := f.count(); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestCreateWithoutHashIsOutcomeUnknown(t *testing.T) {
	f := newFakeAPI(t, func(_ int, _ captured, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, okEnvelope(`{}`))
	})
	c, _ := newTestClient(t, f, nil)
	_, err := c.CreateCatalog(t.Context(), CreateCatalogInput{Sections: []Section{{Type: SectionFeed}}})
	if !IsOutcomeUnknown(err) || f.count() != 1 {
		t.Errorf("err = %v after %d requests, want outcome unknown after 1", err, f.count())
	}
}
