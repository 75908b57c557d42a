terraform {
  required_providers {
    flipbook = {
      source = "flipbook/flipbook"
    }
  }
}

# Every setting can come from the environment instead (FLIPBOOK_API_KEY,
# FLIPBOOK_API_SECRET, FLIPBOOK_BASE_URL, FLIPBOOK_UPLOAD_URL, ...), which keeps
# the secret out of the configuration. Both addresses end in /v1/.
provider "flipbook" {
  api_key    = var.flipbook_api_key
  api_secret = var.flipbook_api_secret
  base_url   = "https://api.flipbook.example/api/v1/"
  upload_url = "https://upload.flipbook.example/upload/v1/"

  # Optional client-side budget, shared by every resource of this provider
  # instance: stay under the account's limits instead of meeting codes 31/32.
  requests_per_second = 5
  requests_per_minute = 120
  max_retries         = 8
}

variable "flipbook_api_key" {
  type = string
}

variable "flipbook_api_secret" {
  type      = string
  sensitive = true
}
