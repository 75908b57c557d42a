terraform {
  required_version = ">= 1.7" # import blocks with for_each

  required_providers {
    flipbook = {
      source = "flipbook/flipbook"
    }
  }
}

# The provider reads FLIPBOOK_API_KEY, FLIPBOOK_API_SECRET, FLIPBOOK_BASE_URL
# and FLIPBOOK_UPLOAD_URL from the environment: the same configuration runs
# against the emulator while you iterate and against the service afterwards.
provider "flipbook" {}
