# Stop managing the resource without destroying it (Terraform 1.7 or later):
# the API cannot delete it anyway (the logo stays on the collection), and this says so in the plan
# instead of a destroy that only warns. Delete the resource block, add this,
# and apply.
removed {
  from = flipbook_collection_logo.example

  lifecycle {
    destroy = false
  }
}
