package emulator

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/harness"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// Where an action is sent and with which method.
type actionKind int

const (
	kindGet    actionKind = iota // GET to {base_url}
	kindPost                     // POST (form) to {base_url}
	kindUpload                   // POST (multipart) to {upload_url}
)

type actionSpec struct {
	kind     actionKind
	formats  bool     // takes format and callback
	required []string // mandatory parameters beyond the common three
	run      func(*call) reply
}

var actions map[string]actionSpec

// namedOnly are the actions the spec names without describing them.
var namedOnly = map[string]bool{
	"collection.create":             true,
	"collection.update":             true,
	"collection.setBackgroundImage": true,
}

func init() {
	actions = map[string]actionSpec{
		"collection.createFromTemplate":    {kind: kindPost, required: []string{"sections"}, run: (*call).createFromTemplate},
		"collection.createCatalog":         {kind: kindPost, required: []string{"sections"}, run: (*call).createCatalog},
		"collection.getCollection":         {kind: kindGet, required: []string{"collectionHash"}, run: (*call).getCollection},
		"collection.getPermissions":        {kind: kindGet, required: []string{"collectionHash"}, run: (*call).getPermissions},
		"collection.setPermissions":        {kind: kindGet, required: []string{"collectionHash", "permissions"}, run: (*call).setPermissions},
		"collection.getEmbed":              {kind: kindGet, required: []string{"collectionHash"}, run: (*call).getEmbed},
		"collection.downloadHTML":          {kind: kindGet, required: []string{"collectionHash"}, run: (*call).downloadHTML},
		"collection.getStats":              {kind: kindGet, formats: true, required: []string{"collectionHash", "flipbookHash"}, run: (*call).getStats},
		"collection.setLogo":               {kind: kindUpload, formats: true, required: []string{"collectionHash"}, run: (*call).setLogo},
		"collection.deleteBackgroundImage": {kind: kindGet, formats: true, required: []string{"collectionHash"}, run: (*call).deleteBackgroundImage},
		"flipbook.add":                     {kind: kindUpload, formats: true, required: []string{"collectionHash"}, run: (*call).addFlipbook},
		"user.getStats":                    {kind: kindGet, run: (*call).userStats},
	}
}

// reply is an envelope to send.
type reply struct {
	code int
	data any
}

func ok(data any) reply { return reply{code: codeOK, data: data} }

func fail(code int) reply { return reply{code: code} }

// invalid is code 40 with data.message and, when given, data.errors.
func invalid(message string, errs ...string) reply {
	d := obj{{"message", message}}
	if len(errs) > 0 {
		d = append(d, field{"errors", errs})
	}
	return reply{code: codeBadRequest, data: d}
}

func fromInvalid(inv *engine.Invalid) reply {
	errs := inv.Errors
	if errs == nil {
		errs = []string{}
	}
	return reply{code: codeBadRequest, data: obj{{"message", inv.Message}, {"errors", errs}}}
}

func missing(param string) reply {
	return reply{code: codeMissingParameter, data: obj{{"message", "Missing mandatory parameter: " + param}}}
}

// call is one authenticated API call being answered.
type call struct {
	e          *Emulator
	ctx        context.Context
	q          *apiRequest
	acct       *store.Account
	base       string // "http://host" of the emulator, for the URLs it hands out
	failGen    bool   // the generation_failed fault was drawn for this call
	failConv   bool   // the conversion_failed fault was drawn for this call
	failPkg    bool   // the package_failed fault was drawn for this call
	uploadBase bool
}

// format is how an answer is encoded.
type format struct {
	kind     string // json, jsonp, xml
	callback string
}

var callbackName = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$`)

// requestedFormat is the format asked for, when the action takes one and the
// request is well formed; otherwise JSON. problem is the answer to give for a
// bad format or callback.
func requestedFormat(q *apiRequest) (format, *reply) {
	spec, known := actions[q.get("action")]
	if !known || !spec.formats {
		return format{kind: "json"}, nil
	}
	switch f := q.get("format"); f {
	case "", "json":
		return format{kind: "json"}, nil
	case "xml":
		return format{kind: "xml"}, nil
	case "jsonp":
		cb := q.get("callback")
		if cb == "" {
			r := missing("callback")
			return format{kind: "json"}, &r
		}
		if !callbackName.MatchString(cb) {
			r := invalid("callback must be a JavaScript function name", "callback: not a valid function name")
			return format{kind: "json"}, &r
		}
		return format{kind: "jsonp", callback: cb}, nil
	default:
		r := invalid("format must be json, jsonp or xml", "format: unknown format '"+f+"'")
		return format{kind: "json"}, &r
	}
}

// Signature is the spec's request signature: md5 hex of the secret followed
// by every parameter but signature, sorted by key, as key then value.
func Signature(secret string, params map[string]string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		if k != "signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	h := md5.New()
	h.Write([]byte(secret))
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte(params[k]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// serveAPI answers one API call. The checks run in this order (the spec
// gives the codes, not their precedence):
//
//	faults -> malformed body 40 -> apiKey/signature/action 30 -> key 41 ->
//	signature 44 -> rate 31/32 -> action 42 -> method/address 40 ->
//	format/callback 30/40 -> action parameters 30 -> the action's own checks.
func (e *Emulator) serveAPI(w http.ResponseWriter, r *http.Request, uploadBase bool) {
	q := readRequest(r, e.maxUploadBytes(), e.drainBytes)
	defer q.close()
	action := q.get("action")
	fmtAsked, _ := requestedFormat(q)

	fault := e.harness.DrawFault(action, q.params)
	switch fault {
	case harness.FaultReset:
		e.count(action, outcomeFault)
		dropConnection(w)
		return
	case harness.FaultHTTP502:
		e.count(action, outcomeFault)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(badGatewayPage))
		return
	case harness.FaultGarbage:
		e.count(action, outcomeFault)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"code":20,"status":"OK","data":{"collec`))
		return
	case harness.FaultRateLimit:
		code := codeRatePerSecond
		if e.harness.Coin() {
			code = codeRatePerMinute
		}
		e.finish(w, action, fmtAsked, fail(code), false)
		return
	case harness.FaultPermissionsFailure:
		e.finish(w, action, fmtAsked, fail(codeOperationFailed), false)
		return
	case harness.FaultMaintenance:
		// Before the call acts: the service refuses every request.
		e.finish(w, action, fmtAsked, fail(codeMaintenance), false)
		return
	case harness.FaultSlow:
		t := time.NewTimer(e.harness.SlowDelay())
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			e.count(action, outcomeFault)
			return
		}
	}

	c := &call{e: e, ctx: r.Context(), q: q, base: "http://" + r.Host, failGen: fault == harness.FaultGenerationFailed,
		failConv: fault == harness.FaultConversionFailed, failPkg: fault == harness.FaultPackageFailed, uploadBase: uploadBase}
	rep, fm := c.answer()
	e.persist()
	e.finish(w, action, fm, rep, fault == harness.FaultResetAfter)
}

func (c *call) answer() (reply, format) {
	q, e := c.q, c.e
	fm := format{kind: "json"}
	if q.malformed != "" {
		return invalid("Malformed request: "+q.malformed, "request: "+q.malformed), fm
	}
	if q.abandoned {
		// The parameters after the file were never read: nothing to
		// authenticate, only the files to report.
		if q.fileParts > 1 {
			return fail(codeMultipleFiles), fm
		}
		return fail(codeFileTooLarge), fm
	}
	if f, problem := requestedFormat(q); problem == nil {
		fm = f
	}
	for _, k := range []string{"apiKey", "signature", "action"} {
		if q.get(k) == "" {
			return missing(k), fm
		}
	}
	acct := e.store.Account(q.get("apiKey"))
	if acct == nil {
		return fail(codeInvalidCredentials), fm
	}
	want := Signature(acct.Fixture().Secret, q.params)
	if subtle.ConstantTimeCompare([]byte(strings.ToLower(q.get("signature"))), []byte(want)) != 1 {
		return fail(codeInvalidSignature), fm
	}
	c.acct = acct
	if code := e.takeRate(acct.Fixture().APIKey); code != 0 {
		return fail(code), fm
	}
	action := q.get("action")
	spec, known := actions[action]
	if !known && namedOnly[action] {
		return invalid(action+" is not emulated: the spec names it without describing it", "action: "+action+" is not emulated"), fm
	}
	if !known {
		return reply{code: codeInvalidAction, data: obj{{"message", "Unknown action '" + action + "'"}}}, fm
	}
	switch {
	case spec.kind == kindGet && q.method != http.MethodGet:
		return invalid(action+" must be sent with GET", "method: "+q.method+" is not allowed for "+action), fm
	case spec.kind != kindGet && q.method != http.MethodPost:
		return invalid(action+" must be sent with POST", "method: "+q.method+" is not allowed for "+action), fm
	case spec.kind == kindUpload && !c.uploadBase:
		return invalid(action+" must be sent to the upload address {upload_url}", "address: "+action+" is an upload action"), fm
	case spec.kind != kindUpload && c.uploadBase:
		return invalid(action+" must be sent to the base address {base_url}", "address: only upload actions are served at {upload_url}"), fm
	}
	if _, problem := requestedFormat(q); problem != nil {
		return *problem, fm
	}
	for _, k := range spec.required {
		if q.get(k) == "" {
			return missing(k), fm
		}
	}
	if spec.kind == kindUpload && q.file == nil && q.get("fileUrl") == "" {
		return missing("file or fileUrl"), fm
	}
	return spec.run(c), fm
}

// finish encodes and sends an envelope and counts the call; with drop the
// answer is computed (the call took effect) but the connection is cut
// instead of sending it.
func (e *Emulator) finish(w http.ResponseWriter, action string, fm format, rep reply, drop bool) {
	if drop {
		e.count(action, outcomeFault)
		dropConnection(w)
		return
	}
	e.count(action, itoa(rep.code))
	env := obj{{"code", rep.code}, {"status", statusText[rep.code]}}
	if rep.data != nil {
		env = append(env, field{"data", rep.data})
	}
	var body []byte
	switch fm.kind {
	case "xml":
		var b bytes.Buffer
		b.WriteString("<response>")
		writeXML(&b, env)
		b.WriteString("</response>")
		body = b.Bytes()
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	case "jsonp":
		j, _ := json.Marshal(env)
		body = append(append([]byte(fm.callback+"("), j...), ");"...)
		w.Header().Set("Content-Type", "application/javascript; charset=utf-8")
	default:
		body, _ = json.Marshal(env)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

const badGatewayPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n"

// dropConnection closes the client connection without an answer.
func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

func (e *Emulator) count(action, outcome string) {
	if action == "" {
		action = "(none)"
	}
	e.harness.Count(action, outcome)
	e.logf("api %s -> %s", action, outcome)
}

func (e *Emulator) maxUploadBytes() int64 {
	if n := e.w().fx.Limits.MaxUploadBytes; n > 0 {
		return n
	}
	return defaultMaxUploadBytes
}

func (e *Emulator) maxPages() int {
	if n := e.w().fx.Limits.MaxPages; n > 0 {
		return n
	}
	return defaultMaxPages
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
