resource "flipbook_template_collection" "brochure" {
  title    = "Spring brochure"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}

# The player shows this logo; a click opens click_url. A changed file on disk
# is a planned change (file_sha256).
resource "flipbook_collection_logo" "example" {
  collection_hash = flipbook_template_collection.brochure.id
  file            = "${path.module}/logo.png"
  click_url       = "https://example.com"
}
