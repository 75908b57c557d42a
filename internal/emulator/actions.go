package emulator

import (
	"fmt"
	"hash/fnv"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/engine"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// key is the API key of the call's account.
func (c *call) key() string { return c.acct.Fixture().APIKey }

func (c *call) getCollection() reply {
	now := c.e.now()
	col, code := c.e.store.CollectionOf(c.key(), c.q.get("collectionHash"))
	if code != 0 {
		return fail(code)
	}
	return ok(c.e.renderCollection(&col, now, c.base))
}

func (c *call) createFromTemplate() reply {
	return c.generate("template", engine.TemplateSections)
}

func (c *call) createCatalog() reply {
	return c.generate("catalog", engine.CatalogSections)
}

// generate validates a generation request and queues it: the collection is
// processing for the generation delay, then ends as the fixture says, or
// editable with flipbookStatus failed under the generation_failed fault.
func (c *call) generate(kind string, sections func(string, engine.Library) (engine.Generation, *engine.Invalid)) reply {
	e, q := c.e, c.q
	raw, folder := q.get("sections"), q.get("folder")
	// The account's templates and feeds never change after New, so they are
	// read without the lock.
	gen, bad := sections(raw, c.acct)
	if inv := engine.Join(engine.ValidateFolder(folder), bad); inv != nil {
		return fromInvalid(inv)
	}
	title := q.get("title")
	if title == "" {
		title = "Untitled"
	}
	desc := "Generated from templates"
	if kind == "catalog" {
		desc = "Generated catalog"
	}
	now := e.now().UTC()
	delay := e.store.GenerationDelay()
	col := &store.Collection{
		Hash:          store.NewHash(),
		APIKey:        c.acct.Fixture().APIKey,
		Kind:          kind,
		Title:         title,
		Description:   desc,
		Status:        e.w().resultStatus,
		Private:       e.w().genPrivate,
		Sections:      raw,
		CreatedAt:     now,
		ReadyAt:       now.Add(delay),
		PublishedAt:   now.Add(delay),
		GenFailed:     c.failGen,
		Background:    true,
		BackgroundHex: store.DefaultBackground,
		Permissions:   []store.Permission{},
		Items: []*store.Item{{
			Hash: store.NewHash(), Title: title, Description: desc,
			PageCount: gen.PageCount, Extension: "pdf", ReadyAt: now.Add(delay),
		}},
	}
	if c.failGen {
		col.Status = "editable"
	}
	if kind == "catalog" {
		col.Layout = gen.Layout
		if col.Layout == nil {
			col.Layout = [][]string{}
		}
	}
	e.store.AddGenerated(c.acct, col, folder)
	return ok(obj{{"collectionHash", col.Hash}})
}

func renderPermissions(ps []store.Permission) obj {
	list := []obj{}
	for _, p := range ps {
		o := obj{{"type", p.Type}}
		if p.Email != "" {
			o = append(o, field{"email", p.Email})
		}
		if p.Group != "" {
			o = append(o, field{"group", p.Group})
		}
		list = append(list, o)
	}
	return obj{{"permissions", list}}
}

func (c *call) getPermissions() reply {
	ps, code := c.e.store.Permissions(c.key(), c.q.get("collectionHash"), c.e.now())
	if code != 0 {
		return fail(code)
	}
	return ok(renderPermissions(ps))
}

// Plan and workspace messages of the spec's permissions table.
const (
	msgOTPPlan    = "OTP permissions are not available on your plan"
	msgSSOPlan    = "SSO permissions are not available on your plan"
	msgSSOEnabled = "SSO is not enabled for this workspace"
)

func (c *call) setPermissions() reply {
	e := c.e
	now := e.now().UTC()
	hash := c.q.get("collectionHash")
	if code := e.store.CheckPermissionTarget(c.key(), hash, now); code != 0 {
		return fail(code)
	}
	entries, inv := engine.ParsePermissions(c.q.get("permissions"))
	if inv != nil {
		return fromInvalid(inv)
	}
	a := c.acct
	var otp, sso bool
	for _, p := range entries {
		otp = otp || p.Type == engine.TypeOTP
		sso = sso || p.Type == engine.TypeSSO
	}
	var errs []string
	if otp && !a.Fixture().Plan.OTP {
		errs = append(errs, msgOTPPlan)
	}
	if sso && !a.Fixture().Plan.SSO {
		errs = append(errs, msgSSOPlan)
	}
	if sso && a.Fixture().Plan.SSO && !a.Fixture().SSOEnabled {
		errs = append(errs, msgSSOEnabled)
	}
	if len(errs) > 0 {
		return invalid(engine.ValidationFailed, errs...)
	}
	saved := []store.Permission{}
	var sent []Notification
	for _, p := range entries {
		recipients, keep := resolve(a, p)
		if !keep {
			continue
		}
		saved = append(saved, store.Permission{Type: p.Type, Email: p.Email, Group: p.Group})
		if p.NotifyViaEmail {
			for _, to := range recipients {
				sent = append(sent, Notification{
					APIKey: a.Fixture().APIKey, CollectionHash: hash, Email: to,
					Type: p.Type, Group: p.Group, Time: now,
				})
			}
		}
	}
	// Spec, collection.setPermissions: "The array replaces the existing
	// access list. An empty array removes all private access rows", but
	// rule 6: "When all entries are skipped, nothing is saved and
	// `permissions` is an empty array" (the list the collection had stays).
	if len(entries) > 0 && len(saved) == 0 {
		return ok(renderPermissions(saved))
	}
	if code := e.store.ReplacePermissions(c.key(), hash, now, saved); code != 0 {
		return fail(code)
	}
	e.harness.Notify(sent)
	return ok(renderPermissions(saved))
}

// resolve says whether an entry is saved (the spec's skip rules) and who a
// notification for it reaches: accepted readers for teammate entries, the
// address for otp, nobody for sso (SSO viewers have no address here).
func resolve(a *store.Account, p engine.PermissionEntry) (recipients []string, keep bool) {
	switch p.Type {
	case engine.TypeTeammate:
		switch {
		case p.Email != "":
			r, found := a.Reader(p.Email)
			if !found || !r.Accepted {
				return nil, false
			}
			return []string{r.Email}, true
		case p.Group != "":
			if !a.HasGroup(p.Group) {
				return nil, false
			}
			for _, r := range a.Fixture().Readers {
				if r.Accepted && slices.Contains(r.Groups, p.Group) {
					recipients = append(recipients, r.Email)
				}
			}
			return recipients, true
		default:
			for _, r := range a.Fixture().Readers {
				if r.Accepted {
					recipients = append(recipients, r.Email)
				}
			}
			return recipients, true
		}
	case engine.TypeOTP:
		return []string{p.Email}, true
	case engine.TypeSSO:
		if p.Group != "" && !a.HasSSOGroup(p.Group) {
			return nil, false
		}
		return nil, true
	}
	return nil, false
}

// getEmbed builds iframe markup. The deprecated https parameter is checked
// but the player is always served by the emulator over plain http.
func (c *call) getEmbed() reply {
	q := c.q
	col, bad := c.e.store.CollectionOf(c.key(), q.get("collectionHash"))
	if bad != 0 {
		return fail(bad)
	}
	var errs []string
	// Spec, collection.getEmbed table: responsive and https are "boolean".
	boolParam := func(name string, def bool) bool {
		if !q.has(name) {
			return def
		}
		switch strings.ToLower(q.get(name)) {
		case "true", "1":
			return true
		case "false", "0":
			return false
		}
		errs = append(errs, name+": must be a boolean (true or false)")
		return def
	}
	// Spec, collection.getEmbed table: startPage, width, height and
	// startBook are "number"; any finite decimal number is taken as sent.
	numberParam := func(name, def string) string {
		if !q.has(name) {
			return def
		}
		v := q.get(name)
		if !decimalNumber(v) {
			errs = append(errs, name+": must be a number")
			return def
		}
		return v
	}
	responsive := boolParam("responsive", false)
	startPage := numberParam("startPage", "1")
	w := numberParam("width", fmt.Sprint(settingValue(&col, "collectionWidth")))
	h := numberParam("height", fmt.Sprint(settingValue(&col, "collectionHeight")))
	boolParam("https", true)
	startBook := numberParam("startBook", "1")
	if len(errs) > 0 {
		return invalid("Invalid embed parameters", errs...)
	}
	if responsive {
		w, h = "100%", "100%"
	}
	src := fmt.Sprintf("%s/_emulator/view/%s?startPage=%s", c.base, col.Hash, url.QueryEscape(startPage))
	if startBook != "1" {
		src += "&startBook=" + url.QueryEscape(startBook)
	}
	code := fmt.Sprintf(`<iframe src="%s" width="%s" height="%s" style="border:none" allowfullscreen></iframe>`, src, w, h)
	return ok(obj{{"embedCode", code}})
}

// decimalNumber says whether s is a number as a query parameter carries one:
// optional sign, digits with an optional fraction, optional exponent. NaN,
// infinities, hexadecimal forms and spaces are not numbers.
func decimalNumber(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t_xXpPnNiI") {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0)
}

// settingValue is a numeric setting of a collection: the fixture's override
// or the default.
func settingValue(col *store.Collection, name string) any {
	if v, ok := col.Settings[name]; ok {
		if f, ok := v.(float64); ok {
			return int(f)
		}
		return v
	}
	for _, d := range settingDefaults {
		if d.k == name {
			return d.v
		}
	}
	return nil
}

// downloadHTML starts a package on the first call and reports it COMPLETE,
// with a fresh one-minute URL on every call, once the package delay has
// passed. A collection whose flipbook is still processing (generating, or
// converting an added document) is refused with 38 (the spec leaves the code
// open); one whose generation failed has a FAILED package.
func (c *call) downloadHTML() reply {
	e := c.e
	status, token, code := e.store.RequestPackage(c.key(), c.q.get("collectionHash"), e.now(), e.w().pkgDelay, c.failPkg)
	switch {
	case code != 0:
		return fail(code)
	case status == store.PackageComplete:
		return ok(obj{{"status", status}, {"resourceUrl", c.base + "/_emulator/packages/" + token + ".zip"}})
	}
	return ok(obj{{"status", status}})
}

// numbers derives stable statistics from a hash when the fixture gives none.
func numbers(hash string) (views, timeSpent, downloads int64) {
	h := fnv.New64a()
	h.Write([]byte(hash))
	n := h.Sum64()
	return int64(n % 1000), int64(n / 1000 % 600), int64(n / 600000 % 100)
}

func itemStats(col *store.Collection, it *store.Item) (int64, int64, int64) {
	if s := col.Stats; s != nil {
		return s.Views, s.TimeSpent, s.Downloads
	}
	return numbers(it.Hash)
}

func (c *call) getStats() reply {
	col, code := c.e.store.CollectionOf(c.key(), c.q.get("collectionHash"))
	if code != 0 {
		return fail(code)
	}
	it := col.Item(c.q.get("flipbookHash"))
	if it == nil {
		return fail(codeInvalidFlipbook)
	}
	v, t, d := itemStats(&col, it)
	return ok(obj{{"views", v}, {"time_spent", t}, {"downloads", d}})
}

// userStats sums the account's item statistics (impressions three per view)
// unless the fixture fixes them; api_uploads_left is always the quota left
// this month.
func (c *call) userStats() reply {
	e := c.e
	now := e.now()
	a := c.acct
	var imp, views, spent, downloads int64
	if s := a.Fixture().Stats; s != nil {
		imp, views, spent, downloads = s.Impressions, s.Views, s.TimeSpent, s.Downloads
	} else {
		for _, col := range e.store.CollectionsOf(a.Fixture().APIKey) {
			for _, it := range col.Items {
				v, t, d := itemStats(&col, it)
				views, spent, downloads = views+v, spent+t*v, downloads+d
			}
		}
		imp = 3 * views
	}
	left := a.Quota() - e.store.UploadsIn(a, store.MonthOf(now))
	if left < 0 {
		left = 0
	}
	return ok(obj{{"impressions", imp}, {"views", views}, {"time_spent", spent}, {"downloads", downloads}, {"api_uploads_left", left}})
}

// deleteBackgroundImage removes the background image: the player shows a
// plain white background. An optional color (#RGB or #RRGGBB; the spec
// shows the field without its meaning) picks that colour instead.
func (c *call) deleteBackgroundImage() reply {
	e, q := c.e, c.q
	now := e.now()
	hash := q.get("collectionHash")
	if _, code := e.store.CollectionOf(c.key(), hash); code != 0 {
		return fail(code)
	}
	color := "#FFFFFF"
	if q.has("color") {
		color = q.get("color")
		if !hexColor(color) {
			return invalid("color must be a hexadecimal colour", "color: must look like #RRGGBB or #RGB")
		}
	}
	col, code := e.store.RemoveBackground(c.key(), hash, color)
	if code != 0 {
		return fail(code)
	}
	return ok(e.renderCollection(&col, now, c.base))
}

func hexColor(s string) bool {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, r := range s[1:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}
