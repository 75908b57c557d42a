package apiclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

const collectionJSON = `{"code":20,"status":"OK","data":{"collectionHash":"c-1","collectionTitle":"Handbook",
"collectionStatus":"unlisted","collectionPageCount":"4","flipbookPageCount":4,"flipbookStatus":"complete",
"settings":{"collectionWidth":"800","enableDownload":"1","logoImage":"logo-9","backgroundColor":"#ffffff"},
"collectionItems":[{"flipbookHash":"f-1","flipbookPageCount":"2","convertStatus":"COMPLETE","extension":"pdf"},
{"flipbookHash":"f-2","flipbookPageCount":2.0,"convertStatus":"PROCESSING","extension":"pdf"}]}}`

const collectionXML = `<?xml version="1.0" encoding="UTF-8"?>
<response>
  <code>20</code>
  <status>OK</status>
  <data>
    <collectionHash>c-1</collectionHash>
    <collectionTitle>Handbook</collectionTitle>
    <collectionStatus>unlisted</collectionStatus>
    <collectionPageCount>4</collectionPageCount>
    <flipbookPageCount>4</flipbookPageCount>
    <flipbookStatus>complete</flipbookStatus>
    <settings>
      <collectionWidth>800</collectionWidth>
      <enableDownload>1</enableDownload>
      <logoImage>logo-9</logoImage>
      <backgroundColor>#ffffff</backgroundColor>
    </settings>
    <collectionItems>
      <item><flipbookHash>f-1</flipbookHash><flipbookPageCount>2</flipbookPageCount><convertStatus>COMPLETE</convertStatus><extension>pdf</extension></item>
      <item><flipbookHash>f-2</flipbookHash><flipbookPageCount>2</flipbookPageCount><convertStatus>PROCESSING</convertStatus><extension>pdf</extension></item>
    </collectionItems>
  </data>
</response>`

func decodeCollection(t *testing.T, body string) Collection {
	t.Helper()
	env, err := decodeEnvelope([]byte(body))
	if err != nil {
		t.Fatalf("decodeEnvelope: %v", err)
	}
	if env.Code.Int64() != CodeOK || env.Status != "OK" {
		t.Fatalf("envelope code %v status %q", env.Code, env.Status)
	}
	var c Collection
	if err := decodeData(env.Data, &c); err != nil {
		t.Fatalf("decodeData: %v", err)
	}
	return c
}

func TestDecodeJSONJSONPAndXMLAgree(t *testing.T) {
	want := decodeCollection(t, collectionJSON)
	if want.CollectionHash != "c-1" || want.CollectionPageCount.Int64() != 4 || len(want.CollectionItems) != 2 ||
		want.CollectionItems[1].FlipbookPageCount.Int64() != 2 || !want.Settings.EnableDownload.Bool() ||
		want.Settings.LogoImage != "logo-9" {
		t.Fatalf("JSON decoded wrongly: %+v", want)
	}
	for name, body := range map[string]string{
		"jsonp":               "cb(" + collectionJSON + ")",
		"jsonp with ; and ws": "  my.ns_cb$ ( " + collectionJSON + " );\n",
		"xml":                 collectionXML,
		"json with BOM":       "\xef\xbb\xbf" + collectionJSON,
	} {
		t.Run(name, func(t *testing.T) {
			if got := decodeCollection(t, body); !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n %+v\nwant\n %+v", got, want)
			}
		})
	}
}

func TestDecodeXMLShapes(t *testing.T) {
	body := `<response><code>40</code><status>Bad Request</status><data>
		<message>Validation failed</message>
		<errors><item>sections[0].sources: must be provided</item><item>title: too long</item></errors>
	</data></response>`
	env, err := decodeEnvelope([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	ae := env.apiError(ActionCreateCatalog)
	want := &APIError{Action: ActionCreateCatalog, Code: 40, Status: "Bad Request", Message: "Validation failed",
		Errors: []string{"sections[0].sources: must be provided", "title: too long"}}
	if !reflect.DeepEqual(ae, want) {
		t.Errorf("got %+v, want %+v", ae, want)
	}

	// Empty elements read as absent; a single <item> is still a list;
	// repeated non-item siblings become a list.
	v, err := xmlToJSON([]byte(`<response><a/><b><item>x</item></b><c>1</c><c>2</c><c>3</c><d> </d></response>`))
	if err != nil {
		t.Fatal(err)
	}
	if string(v) != `{"a":null,"b":["x"],"c":["1","2","3"],"d":null}` {
		t.Errorf("xmlToJSON = %s", v)
	}
	var perms permissionsData
	env, err = decodeEnvelope([]byte(`<response><code>20</code><status>OK</status><data><permissions/></data></response>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := decodeData(env.Data, &perms); err != nil || perms.Permissions != nil {
		t.Errorf("empty permissions: %v %+v", err, perms)
	}
}

func TestDecodeErrorEnvelopeVariants(t *testing.T) {
	tests := []struct {
		body string
		want *APIError
	}{
		{`{"code":46,"status":"Invalid collection hash"}`,
			&APIError{Action: "a", Code: 46, Status: "Invalid collection hash"}},
		{`{"code":"40","status":"Bad Request","data":{"message":"Validation failed","errors":["x: bad"]}}`,
			&APIError{Action: "a", Code: 40, Status: "Bad Request", Message: "Validation failed", Errors: []string{"x: bad"}}},
		{`{"code":40,"status":"Bad Request","data":{"errors":"one thing"}}`,
			&APIError{Action: "a", Code: 40, Status: "Bad Request", Errors: []string{"one thing"}}},
		{`{"code":40,"status":"Bad Request","data":{"errors":{"title":"too long","folder":["bad","worse"]}}}`,
			&APIError{Action: "a", Code: 40, Status: "Bad Request", Errors: []string{"folder: bad", "folder: worse", "title: too long"}}},
		{`{"code":99,"status":"Something new","data":[]}`,
			&APIError{Action: "a", Code: 99, Status: "Something new"}},
	}
	for _, tt := range tests {
		env, err := decodeEnvelope([]byte(tt.body))
		if err != nil {
			t.Fatalf("%s: %v", tt.body, err)
		}
		if got := env.apiError("a"); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.body, got, tt.want)
		}
	}
}

func TestDecodeRejectsNonEnvelopes(t *testing.T) {
	for _, body := range []string{
		``,
		`   `,
		`<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>`,
		`{"code":20,"status":"OK","data":{"collectionHash":"ab`,
		`{"status":"OK"}`,
		`{"code":"abc"}`,
		`[1,2,3]`,
		`cb({"code":20}`,
		`Service Unavailable`,
		`<response><code>20</code>`,
		`<a/><b/>`,
	} {
		_, err := decodeEnvelope([]byte(body))
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%q: got %v, want *DecodeError", body, err)
		}
	}
}

func TestSnippetIsShortRedactedAndValidUTF8(t *testing.T) {
	r := newRedactor(testSecret, testKey, "0123456789abcdef0123456789abcdef")
	body := []byte("<html>?apiKey=" + testKey + "&signature=0123456789abcdef0123456789abcdef secret=" + testSecret + " " +
		strings.Repeat("é", 300))
	s := snippet(body, r)
	for _, leak := range []string{testKey, testSecret, "0123456789abcdef"} {
		if strings.Contains(s, leak) {
			t.Errorf("snippet leaks %q: %s", leak, s)
		}
	}
	if !utf8.ValidString(s) || len(s) > 200+len("…") || !strings.HasSuffix(s, "…") {
		t.Errorf("snippet length %d, valid %v: %q", len(s), utf8.ValidString(s), s)
	}
	if got := snippet([]byte("short"), r); got != "short" {
		t.Errorf("short snippet = %q", got)
	}
}

// FuzzDecodeEnvelope: any body either decodes to an envelope with a code
// or gives a *DecodeError; nothing panics; a decoded JSON envelope decodes
// the same when wrapped in JSONP.
func FuzzDecodeEnvelope(f *testing.F) {
	f.Add([]byte(collectionJSON))
	f.Add([]byte(collectionXML))
	f.Add([]byte(`cb({"code":31,"status":"Requests per second limit exceeded"});`))
	f.Add([]byte(`<html>502</html>`))
	f.Add([]byte(`{"code":"20","status":"OK","data":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		env, err := decodeEnvelope(body)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			return
		}
		if !env.Code.Valid {
			t.Fatal("decoded envelope without a valid code")
		}
		_ = env.apiError("fuzz")
		var c Collection
		_ = decodeData(env.Data, &c)
		trimmed := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
		if len(trimmed) > 0 && trimmed[0] == '{' {
			again, err := decodeEnvelope(append(append([]byte("cb("), trimmed...), ')'))
			if err != nil || again.Code != env.Code || again.Status != env.Status || !bytes.Equal(again.Data, env.Data) {
				t.Fatalf("JSONP wrapping changed the result: %v %+v vs %+v", err, again, env)
			}
		}
	})
}

func BenchmarkDecodeCollection(b *testing.B) {
	for _, bc := range []struct{ name, body string }{{"json", collectionJSON}, {"xml", collectionXML}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				env, err := decodeEnvelope([]byte(bc.body))
				if err != nil {
					b.Fatal(err)
				}
				var c Collection
				if err := json.Unmarshal(env.Data, &c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
