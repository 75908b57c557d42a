# Writes the collection's offline HTML package to a local ZIP file (Terraform
# 1.14 or later). The one-minute download link stays inside the provider: it
# never reaches the plan, the state or the logs. Run it on demand with
#
#   terraform apply -invoke=action.flipbook_html_package_download.handbook
action "flipbook_html_package_download" "handbook" {
  config {
    collection_hash = "pub-private-1"
    path            = "${path.module}/dist/handbook.zip"

    # Covers the wait for the package and the download.
    timeouts = {
      invoke = "10m"
    }
  }
}

# Or run it whenever something changes: here, each time a new edition of the
# handbook is released.
variable "edition" {
  type    = string
  default = "2026.1"
}

resource "terraform_data" "handbook_release" {
  input = var.edition

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.flipbook_html_package_download.handbook]
    }
  }
}
