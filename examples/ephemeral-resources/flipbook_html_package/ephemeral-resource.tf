# Builds the collection's offline HTML package and yields a download URL that
# is valid for one minute. Ephemeral: the URL never reaches the plan or state
# (Terraform 1.10 or later).
ephemeral "flipbook_html_package" "handbook" {
  collection_hash = "pub-private-1"
}

# Hand the URL to something that uses it during this run, for example a
# provider that uploads the package elsewhere, or an ephemeral output of a
# child module:
#
# output "package_url" {
#   value     = ephemeral.flipbook_html_package.handbook.resource_url
#   ephemeral = true
# }
