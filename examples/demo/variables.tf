variable "brands" {
  description = "Brands the demo catalog keeps."
  type        = list(string)
  default     = ["Acme", "Bolt"]
}
