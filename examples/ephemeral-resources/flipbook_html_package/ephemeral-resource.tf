# Builds the collection's offline HTML package and yields a download URL that
# is valid for one minute. Ephemeral: the URL never reaches the plan or state
# (Terraform 1.10 or later).
ephemeral "flipbook_html_package" "handbook" {
  collection_hash = "pub-private-1"

  # A package the service could not build comes back as status "FAILED"
  # with no URL; stop here rather than hand a null URL on.
  lifecycle {
    postcondition {
      condition     = self.status == "COMPLETE"
      error_message = "The HTML package of pub-private-1 failed to build."
    }
  }
}

# Hand the URL to something that uses it during this run, for example a
# provider that uploads the package elsewhere, or an ephemeral output of a
# child module:
#
# output "package_url" {
#   value     = ephemeral.flipbook_html_package.handbook.resource_url
#   ephemeral = true
# }
