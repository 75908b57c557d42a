# What `make demo` applies against the emulator's demo fixture: the template
# hashes, the feed, the group, the reader and the published private collection
# below all exist in that fixture.

# A brochure: the two-page cover template with its headline filled in, then a
# blank page for notes.
resource "flipbook_template_collection" "brochure" {
  title  = "Spring brochure"
  folder = "Demo/Brochures"

  sections = [
    {
      type      = "static"
      templates = [{ template_hash = "tpl-cover" }]
      elements  = [{ name = "headline", value = "Spring 2026" }]
    },
    {
      type       = "blank"
      page_break = true
      page_count = 1
    },
  ]

  timeouts = {
    create = "10m"
  }
}

# A catalog of the shoes feed: affordable shoes of two brands, grouped by
# brand with a page per brand, dearest first within a brand.
resource "flipbook_catalog" "shoes" {
  title  = "Shoes 2026"
  folder = "Demo/Catalogs"

  sections = [{
    sources       = ["feed-shoes"]
    template_hash = "tpl-product"

    group_by = [{ field = "brand", page_break = true }]
    sort_by  = [{ field = "price", order = "desc" }]

    filters = [{
      mode = "include"
      conditions = [
        { field = "price", operator = "between", values = ["10", "99.5"] },
        { field = "brand", operator = "in", values = var.brands },
      ]
    }]
  }]

  timeouts = {
    create = "10m"
  }
}

# The access list of the fixture's published private collection: everyone in
# the Sales group, plus one accepted reader by email.
resource "flipbook_collection_permissions" "handbook" {
  collection_hash = "pub-private-1"

  permissions = [
    { type = "teammate", group = "Sales" },
    { type = "teammate", email = "ana@example.com" },
  ]
}

resource "flipbook_collection_logo" "shoes" {
  collection_hash = flipbook_catalog.shoes.id
  file            = "${path.module}/logo.png"
  click_url       = "https://example.com/shoes"
}

resource "flipbook_document" "manual" {
  collection_hash = flipbook_template_collection.brochure.id
  file            = "${path.module}/manual.pdf"
  title           = "Care manual"
  description     = "How to look after your shoes"
}

data "flipbook_embed" "shoes" {
  collection_hash = flipbook_catalog.shoes.id
  responsive      = true

  # Read the embed code once the logo is on the catalog.
  depends_on = [flipbook_collection_logo.shoes]
}

data "flipbook_user_stats" "account" {
  depends_on = [flipbook_document.manual]
}
