resource "flipbook_template_collection" "brochure" {
  title    = "Spring brochure"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}

# The collection shows no background image. Refresh cannot see an image added
# back in the web application: change a value in triggers to remove it again.
resource "flipbook_collection_background" "example" {
  collection_hash = flipbook_template_collection.brochure.id

  triggers = {
    reviewed = "2026-03"
  }
}

output "background_color" {
  value = flipbook_collection_background.example.background_color
}
