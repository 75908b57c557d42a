resource "flipbook_template_collection" "brochure" {
  title    = "Spring brochure"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}

# The collection shows no background image.
resource "flipbook_collection_background" "example" {
  collection_hash = flipbook_template_collection.brochure.id
}
