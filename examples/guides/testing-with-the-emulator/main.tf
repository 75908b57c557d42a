# The configuration under test: a brochure and who may read it. The same
# files run against the emulator in CI (tests/emulator.tftest.hcl, and the
# shell steps of ci.sh) and with a mocked provider (tests/mock.tftest.hcl).

variable "title" {
  type    = string
  default = "Spring brochure"
}

variable "readers" {
  description = "Addresses that get a one-time passcode."
  type        = set(string)
  default     = ["partner@example.net"]
}

resource "flipbook_template_collection" "brochure" {
  title = var.title
  sections = [
    {
      type      = "static"
      templates = [{ template_hash = "tpl-cover" }]
      elements = [
        { name = "headline", value = var.title },
        { name = "subtitle", value = "Collection 2026" },
      ]
    },
    { type = "blank", page_count = 1 },
  ]
}

resource "flipbook_collection_permissions" "brochure" {
  collection_hash = flipbook_template_collection.brochure.id
  permissions     = [for email in var.readers : { type = "otp", email = email }]
}

output "direct_link" {
  value = flipbook_template_collection.brochure.direct_link
}

output "page_count" {
  value = flipbook_template_collection.brochure.page_count
}
