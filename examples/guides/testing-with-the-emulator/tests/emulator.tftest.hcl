# Runs against the service that FLIPBOOK_BASE_URL and FLIPBOOK_UPLOAD_URL
# name: in CI, the emulator that ci.sh starts. Everything the runs create is
# destroyed at the end (the collections themselves stay in the emulator,
# which is thrown away with the job).

run "brochure_is_generated" {
  command = apply

  assert {
    condition     = flipbook_template_collection.brochure.page_count == 3
    error_message = "Two cover pages and one blank page, got ${flipbook_template_collection.brochure.page_count}."
  }

  assert {
    condition     = contains(["public", "unlisted", "published"], flipbook_template_collection.brochure.status)
    error_message = "The generation should end published, got ${flipbook_template_collection.brochure.status}."
  }

  assert {
    condition     = length(flipbook_collection_permissions.brochure.permissions) == 1
    error_message = "One passcode reader."
  }
}

run "new_reader_updates_the_list_in_place" {
  command = apply

  variables {
    readers = ["partner@example.net", "auditor@example.org"]
    # The first run's output, carried into this one.
    first_link = run.brochure_is_generated.direct_link
  }

  assert {
    condition     = output.direct_link == var.first_link
    error_message = "A new reader changes the list, never the collection."
  }

  assert {
    condition     = length(flipbook_collection_permissions.brochure.permissions) == 2
    error_message = "The new reader is on the list."
  }
}
