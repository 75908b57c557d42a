package emulator

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strconv"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/store"
)

// field and obj keep the fields of an answer in a fixed order, the order the
// spec lists them, in JSON and in XML alike.
type field struct {
	k string
	v any
}

type obj []field

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeXML writes v as the children of an element: an obj as one element per
// field, an array as repeated <item> elements, a scalar as text.
func writeXML(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
	case obj:
		for _, f := range x {
			fmt.Fprintf(b, "<%s>", f.k)
			writeXML(b, f.v)
			fmt.Fprintf(b, "</%s>", f.k)
		}
	case []any:
		for _, e := range x {
			b.WriteString("<item>")
			writeXML(b, e)
			b.WriteString("</item>")
		}
	case []obj:
		for _, e := range x {
			b.WriteString("<item>")
			writeXML(b, e)
			b.WriteString("</item>")
		}
	case []string:
		for _, e := range x {
			b.WriteString("<item>")
			writeXML(b, e)
			b.WriteString("</item>")
		}
	case string:
		_ = xml.EscapeText(b, []byte(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	default:
		j, _ := json.Marshal(x)
		_ = xml.EscapeText(b, j)
	}
}

// scalar renders a settings number or boolean, or flipbookPageCount, as the
// fixture's stringScalars switch asks.
func (e *Emulator) scalar(v any) any {
	if !e.w().fx.StringScalars {
		return v
	}
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return v
}

func fmtDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(dateLayout)
}

// renderCollection is the collection object of collection.getCollection,
// drawn from a copy the store handed out. base is the emulator's own
// address, "http://host".
func (e *Emulator) renderCollection(c *store.Collection, now time.Time, base string) obj {
	// "a single item for API-created collections": the item is listed
	// while it generates too, PROCESSING and without pages yet.
	items := []obj{}
	for _, it := range c.Items {
		items = append(items, e.renderItem(c, it, now))
	}
	first := 0
	if vi := c.VisibleItems(now); len(vi) > 0 && !c.GenFailed {
		first = vi[0].PageCount
	}
	publish := time.Time{}
	if !c.Processing(now) && store.Published(c.Status) {
		publish = c.PublishedAt
	}
	return obj{
		{"collectionHash", c.Hash},
		{"collectionTitle", c.Title},
		{"collectionDescription", c.Description},
		{"collectionStatus", c.StatusAt(now)},
		{"coverImage", base + "/_emulator/cover/" + c.Hash + ".svg"},
		{"collectionPageCount", c.PageCountAt(now)},
		{"createdDate", fmtDate(c.CreatedAt)},
		{"publishDate", fmtDate(publish)},
		{"directLink", base + "/_emulator/view/" + c.Hash},
		{"flipbookPageCount", e.scalar(first)},
		{"flipbookStatus", c.FlipbookStatus(now)},
		{"settings", e.renderSettings(c, now)},
		{"collectionItems", items},
	}
}

func (e *Emulator) renderItem(c *store.Collection, it *store.Item, now time.Time) obj {
	pages := it.PageCount
	if c.GenFailed || c.Processing(now) {
		pages = 0
	}
	return obj{
		{"flipbookHash", it.Hash},
		{"flipbookPageCount", e.scalar(pages)},
		{"flipbookTitle", it.Title},
		{"flipbookDescription", it.Description},
		{"extension", it.Extension},
		{"convertStatus", c.ConvertStatus(it, now)},
	}
}

// settingDefaults are the settings fields in the spec's order, with defaults.
var settingDefaults = []field{
	{"collectionWidth", 640},
	{"collectionHeight", 480},
	{"collectionStatus", ""},
	{"enableDownload", true},
	{"enableFullScreen", true},
	{"enableSearch", true},
	{"tooltipsLanguage", "English"},
	{"transparentBackground", false},
	{"backgroundColor", store.DefaultBackground},
	{"backgroundScaleType", "scaleCrop"},
	{"autoFlip", false},
	{"autoFlipDelay", 5},
	{"rightToLeftOrientation", false},
	{"singlePageView", false},
	{"logoUrl", ""},
	{"logoImage", ""},
	{"shareFacebook", false},
	{"shareTwitter", false},
	{"shareGooglePlus", false},
	{"sharePinterest", false},
	{"shareEmail", false},
	{"shareLinkText", ""},
}

// renderSettings applies, over the defaults, the fixture's overrides and
// then what the API changed (background, logo). logoUrl and the share
// fields are deprecated in getCollection and never carry a value.
func (e *Emulator) renderSettings(c *store.Collection, now time.Time) obj {
	out := make(obj, 0, len(settingDefaults))
	for _, d := range settingDefaults {
		v := d.v
		if o, ok := c.Settings[d.k]; ok {
			v = o
			if f, ok := o.(float64); ok && f == float64(int(f)) {
				v = int(f)
			}
		}
		switch d.k {
		case "collectionStatus":
			v = c.StatusAt(now)
		case "transparentBackground":
			v = c.Transparent
		case "backgroundColor":
			v = c.BackgroundHex
		case "logoImage":
			v = c.LogoImage
		case "logoUrl", "shareLinkText":
			v = ""
		}
		if d.k != "collectionStatus" {
			v = e.scalar(v)
		}
		out = append(out, field{d.k, v})
	}
	return out
}
