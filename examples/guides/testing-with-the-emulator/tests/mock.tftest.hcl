# No service at all: the provider is mocked, so this file checks the
# configuration's own logic (how the access list is built, what the outputs
# say) in a second, with no credentials. Values the mock does not set are
# made up by Terraform.

mock_provider "flipbook" {
  mock_resource "flipbook_template_collection" {
    defaults = {
      id          = "mock-brochure"
      status      = "unlisted"
      page_count  = 3
      direct_link = "https://flipbook.example/view/mock-brochure"
    }
  }
}

run "access_list_from_variables" {
  command = apply

  variables {
    readers = ["a@example.net", "b@example.net"]
  }

  assert {
    condition     = length(flipbook_collection_permissions.brochure.permissions) == 2
    error_message = "One passcode entry per reader."
  }

  assert {
    condition     = flipbook_collection_permissions.brochure.collection_hash == "mock-brochure"
    error_message = "The list is attached to the brochure."
  }

  assert {
    condition     = output.direct_link == "https://flipbook.example/view/mock-brochure"
    error_message = "The output passes the direct link on."
  }
}
