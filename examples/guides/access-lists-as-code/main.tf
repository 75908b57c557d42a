# Access lists as code: one flipbook_collection_permissions resource per
# collection, each owning that collection's whole list.
#
# The three collections below already exist in the account, with lists made
# by hand in the web application. The import blocks adopt those lists on the
# first apply (Terraform 1.7 or later for for_each in an import block), and
# that same apply replaces them with the lists declared here.

locals {
  access = {
    # Workspace readers: a whole group, and one reader by address.
    "handbook-sales" = [
      { type = "teammate", group = "Sales" },
      { type = "teammate", email = "ana@example.com" },
    ]
    # One-time passcodes for people outside the workspace.
    "handbook-support" = [
      { type = "otp", email = "contractor@example.net" },
      { type = "otp", email = "auditor@example.org" },
    ]
    # Viewers who sign in through the workspace's SSO, one group of them.
    "price-list-partners" = [
      { type = "sso", group = "Partners" },
    ]
  }
}

import {
  for_each = local.access
  to       = flipbook_collection_permissions.this[each.key]
  id       = each.key
}

resource "flipbook_collection_permissions" "this" {
  for_each = local.access

  collection_hash = each.key
  permissions     = each.value
}

# A collection created here gets its list in the same configuration. A
# generated collection is published and private once its generation ends,
# which is what the service requires of a collection with an access list.
resource "flipbook_template_collection" "onboarding" {
  title = "Onboarding pack"
  sections = [{
    type      = "static"
    templates = [{ template_hash = "tpl-cover" }]
    elements  = [{ name = "headline", value = "Welcome" }]
  }]
}

resource "flipbook_collection_permissions" "onboarding" {
  collection_hash = flipbook_template_collection.onboarding.id
  permissions = [
    { type = "teammate" }, # every accepted reader of the workspace
  ]
}

output "access_lists" {
  value = merge(
    { for hash, p in flipbook_collection_permissions.this : hash => p.permissions },
    { (flipbook_template_collection.onboarding.id) = flipbook_collection_permissions.onboarding.permissions },
  )
}
