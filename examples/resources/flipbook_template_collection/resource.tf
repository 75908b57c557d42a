# A brochure generated from templates: a cover filled with a headline and a
# gallery, followed by two blank pages for notes.
resource "flipbook_template_collection" "example" {
  title  = "Spring brochure"
  folder = "Marketing/2026/Spring"

  sections = [
    {
      type = "static"
      templates = [
        { template_hash = "tpl-cover", pages = [0, 1] },
      ]
      elements = [
        { name = "headline", value = "Spring 2026" },
        { name = "gallery", values = ["https://example.com/a.jpg", "https://example.com/b.jpg"] },
      ]
    },
    {
      type       = "blank"
      page_break = true
      page_count = 2
    },
  ]

  # Generation runs in the background; apply waits for it up to this long.
  timeouts = {
    create = "30m"
  }
}

output "brochure_link" {
  value = flipbook_template_collection.example.direct_link
}
