# Stop managing the resource without destroying it (Terraform 1.7 or later).
# The API cannot delete it anyway (the logo stays on the collection):
# this says so in the plan, and the provider is never asked to destroy it.
# Replace the resource block with this block and apply.
removed {
  from = flipbook_collection_logo.example

  lifecycle {
    destroy = false
  }
}
