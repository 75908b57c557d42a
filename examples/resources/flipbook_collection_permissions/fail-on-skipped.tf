# The service skips entries it cannot resolve (a reader who has not accepted
# the invitation, a group that does not exist) without an error, and the
# apply only warns. This postcondition makes the run fail instead, on the
# apply that skips and on every plan while an entry stays skipped.
resource "flipbook_collection_permissions" "strict" {
  collection_hash = "pub-private-1"

  permissions = [
    { type = "teammate", group = "Support" },
  ]

  lifecycle {
    postcondition {
      condition     = length(self.skipped_permissions) == 0
      error_message = "The service skipped access list entries: ${jsonencode(self.skipped_permissions)}"
    }
  }
}
