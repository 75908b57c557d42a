package emulator

import (
	"strings"
	"testing"
)

// TestFixtureCollectionFields serves a fixture collection with every
// optional field and plain (not stringly) scalars.
func TestFixtureCollectionFields(t *testing.T) {
	fx, err := ParseFixture([]byte(`{"accounts":[{"apiKey":"demo-key","secret":"demo-secret","groups":["Ops"],
		"collections":[{"collectionHash":"c1","title":"Specs","status":"public","private":true,"folder":"A/B",
			"items":[{"flipbookHash":"x1","title":"One","pageCount":3},{"flipbookHash":"x2","pageCount":2,"extension":"png"}],
			"settings":{"collectionWidth":800,"backgroundColor":"#000000","autoFlip":true},
			"permissions":[{"type":"teammate","group":"Ops"}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, c := startTest(t, fx)
	col := c.collection("c1")
	if col.CollectionPageCount != float64(5) || col.FlipbookPageCount != float64(3) || len(col.CollectionItems) != 2 || col.CollectionItems[1].Extension != "png" {
		t.Fatalf("collection %+v", col)
	}
	s := col.Settings
	if s["collectionWidth"] != float64(800) || s["collectionHeight"] != float64(480) || s["autoFlip"] != true || s["backgroundColor"] != "#000000" || s["collectionStatus"] != "public" {
		t.Fatalf("settings %v", s)
	}
	var embed struct{ EmbedCode string }
	c.get(get("collection.getEmbed", "c1")).into(t, &embed)
	if !strings.Contains(embed.EmbedCode, `width="800" height="480"`) {
		t.Fatalf("embed %s", embed.EmbedCode)
	}
	env := c.get(get("collection.getPermissions", "c1"))
	if string(env.Data) != `{"permissions":[{"type":"teammate","group":"Ops"}]}` {
		t.Fatalf("fixture permissions %s", env.Data)
	}
	// Without fixture stats, user statistics sum the items' derived ones.
	var sum [3]float64
	for _, h := range []string{"x1", "x2"} {
		p := get("collection.getStats", "c1")
		p["flipbookHash"] = h
		var st map[string]float64
		c.get(p).into(t, &st)
		sum[0] += st["views"]
		sum[1] += st["time_spent"] * st["views"]
		sum[2] += st["downloads"]
	}
	var u map[string]float64
	c.get(map[string]string{"action": "user.getStats"}).into(t, &u)
	if u["views"] != sum[0] || u["time_spent"] != sum[1] || u["downloads"] != sum[2] || u["impressions"] != 3*sum[0] || u["api_uploads_left"] != 100 {
		t.Fatalf("user stats %v, items %v", u, sum)
	}
	if v, _ := srv.Emulator.Collection("c1"); v.Folder != "A/B" || v.Kind != "fixture" {
		t.Fatalf("view %+v", v)
	}
	status, svg := plainCall(t, "GET", srv.URL+"/_emulator/cover/c1.svg", "")
	if status != 200 || !strings.Contains(string(svg), "Specs") {
		t.Fatalf("cover %d %s", status, svg)
	}
	if status, _ := plainCall(t, "GET", srv.URL+"/_emulator/cover/none.svg", ""); status != 404 {
		t.Fatalf("cover of nothing: %d", status)
	}
}
