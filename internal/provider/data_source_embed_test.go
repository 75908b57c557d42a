package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccEmbedDataSource(t *testing.T) {
	emu := newTestEmulator(t, nil)
	col, err := emu.apiClient(t).GetCollection(t.Context(), "col-private")
	if err != nil {
		t.Fatal(err)
	}
	// Without width and height the player takes the collection's own size.
	defaultSize := fmt.Sprintf(`width="%d" height="%d"`, col.Settings.CollectionWidth.Value, col.Settings.CollectionHeight.Value)
	cfg := emu.providerConfig("") + `
data "flipbook_embed" "plain" {
  collection_hash = "col-private"
}
data "flipbook_embed" "sized" {
  collection_hash = "col-private"
  start_page      = 3
  width           = 800
  height          = 600
}
data "flipbook_embed" "responsive" {
  collection_hash = "col-private"
  responsive      = true
}
`
	code := func(name string, re string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("data.flipbook_embed."+name, tfjsonpath.New("embed_code"),
			knownvalue.StringRegexp(regexp.MustCompile(re)))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					code("plain", `^<iframe src="[^"]*/col-private\?startPage=1" `+regexp.QuoteMeta(defaultSize)),
					code("sized", `startPage=3" width="800" height="600"`),
					code("responsive", `width="100%" height="100%"`),
				},
			},
			{
				// Spec: startPage, width and height are "number": a decimal,
				// or a value below 1, is planned (below 1 with a warning) and
				// sent as written; the service answers.
				Config: emu.providerConfig("") + `
data "flipbook_embed" "numbers" {
  collection_hash = "col-private"
  start_page      = 0
  width           = 640.5
  height          = 0
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.flipbook_embed.numbers", tfjsonpath.New("embed_code"),
						knownvalue.StringRegexp(regexp.MustCompile(`startPage=0" width="640.5" height="0"`))),
				},
			},
			{
				// A value that is no number is refused by Terraform's type check, on the attribute.
				Config: emu.providerConfig("") + `
data "flipbook_embed" "bad" {
  collection_hash = "col-private"
  width           = "wide"
}`,
				ExpectError: msgRe("Inappropriate value for attribute \"width\"", "a number is required"),
			},
			{
				Config:      emu.providerConfig("") + `data "flipbook_embed" "gone" { collection_hash = "nope" }`,
				ExpectError: msgRe("Error Reading Embed Code", "code 46"),
			},
		},
	})
}
