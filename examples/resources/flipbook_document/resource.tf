resource "flipbook_template_collection" "brochure" {
  title    = "Spring brochure"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}

# Adds a PDF (at most 100 MB and 500 pages) to the collection. Title and
# description are taken from the document when omitted.
resource "flipbook_document" "example" {
  collection_hash = flipbook_template_collection.brochure.id
  file            = "${path.module}/manual.pdf"
  title           = "Manual"
  description     = "User manual"
}

output "manual_pages" {
  value = flipbook_document.example.page_count
}
