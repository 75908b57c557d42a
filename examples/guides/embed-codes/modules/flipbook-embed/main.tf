# A module that turns a collection hash into what a web page needs: the
# embed code, the player's direct link, and a responsive snippet. Modules of
# a site (a CMS entry, a static page, a DNS redirect) take its outputs.

terraform {
  required_providers {
    flipbook = {
      source = "flipbook/flipbook"
    }
  }
}

variable "collection_hash" {
  description = "The collection to embed."
  type        = string
}

variable "start_page" {
  description = "The page the player opens on (1-based)."
  type        = number
  default     = 1
}

variable "responsive" {
  description = "Fill the container (width and height 100%) instead of a fixed size."
  type        = bool
  default     = true
}

variable "aspect_ratio" {
  description = "Width / height of the responsive container: the player has no size of its own when it fills its container."
  type        = string
  default     = "4 / 3"
}

data "flipbook_collection" "this" {
  collection_hash = var.collection_hash
}

data "flipbook_embed" "this" {
  collection_hash = var.collection_hash
  responsive      = var.responsive
  start_page      = var.start_page
}

output "embed_code" {
  description = "The service's iframe markup."
  value       = data.flipbook_embed.this.embed_code
}

output "direct_link" {
  description = "The player page, for a link or a QR code."
  value       = data.flipbook_collection.this.direct_link
}

output "page_count" {
  value = data.flipbook_collection.this.page_count
}

output "html" {
  description = "The embed code in a box that keeps the aspect ratio, with a link for readers without frames."
  value = templatefile("${path.module}/embed.html.tftpl", {
    embed_code   = data.flipbook_embed.this.embed_code
    direct_link  = data.flipbook_collection.this.direct_link
    title        = data.flipbook_collection.this.title
    aspect_ratio = var.aspect_ratio
  })
}
