terraform {
  required_providers {
    flipbook = {
      source = "flipbook/flipbook"
    }
  }
}

# scripts/demo.sh points every setting at the local emulator through
# FLIPBOOK_API_KEY, FLIPBOOK_API_SECRET, FLIPBOOK_BASE_URL and FLIPBOOK_UPLOAD_URL.
provider "flipbook" {}
