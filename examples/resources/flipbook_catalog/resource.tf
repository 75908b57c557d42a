# A product catalog laid out from the "feed-shoes" feed: shoes from 10 to 99.50
# by two brands, grouped by brand (each brand on a new page), dearest first.
resource "flipbook_catalog" "example" {
  title  = "Shoes 2026"
  folder = "Catalogs"

  sections = [{
    sources       = ["feed-shoes"]
    template_hash = "tpl-product"

    group_by = [{ field = "brand", page_break = true }]
    sort_by = [
      { field = "price", order = "desc" },
      { field = "size", custom_order = ["S", "M", "L"] },
    ]

    filters = [
      {
        mode = "include"
        conditions = [
          { field = "price", operator = "between", values = ["10", "99.5"] },
          { field = "brand", operator = "in", values = ["Acme", "Bolt"] },
        ]
      },
      {
        # Drop discontinued SKUs whatever their price.
        mode  = "exclude"
        match = "any"
        conditions = [
          { field = "sku", operator = "in", values = ["B03", "B07"] },
          { field = "brand", operator = "contains", value = "Outlet" },
        ]
      },
    ]
  }]

  timeouts = {
    create = "30m"
  }
}
