output "embed_code" {
  description = "Markup that shows the shoes catalog in a web page."
  value       = data.flipbook_embed.shoes.embed_code
}

output "brochure" {
  # No page_count here: the manual added below changes it after creation, and
  # the demo's second plan must come out empty.
  description = "The generated brochure."
  value = {
    hash        = flipbook_template_collection.brochure.id
    status      = flipbook_template_collection.brochure.status
    direct_link = flipbook_template_collection.brochure.direct_link
  }
}

output "catalog" {
  description = "The generated catalog."
  value = {
    hash       = flipbook_catalog.shoes.id
    status     = flipbook_catalog.shoes.status
    page_count = flipbook_catalog.shoes.page_count
  }
}

output "manual" {
  description = "The uploaded PDF."
  value = {
    hash           = flipbook_document.manual.id
    page_count     = flipbook_document.manual.page_count
    convert_status = flipbook_document.manual.convert_status
  }
}

output "account" {
  description = "Account statistics after the demo."
  value = {
    impressions      = data.flipbook_user_stats.account.impressions
    views            = data.flipbook_user_stats.account.views
    time_spent       = data.flipbook_user_stats.account.time_spent
    downloads        = data.flipbook_user_stats.account.downloads
    api_uploads_left = data.flipbook_user_stats.account.api_uploads_left
  }
}
