# Account-wide statistics, and how many API uploads are left this month.
data "flipbook_user_stats" "account" {}

output "uploads_left" {
  value = data.flipbook_user_stats.account.api_uploads_left
}

output "total_views" {
  value = data.flipbook_user_stats.account.views
}
