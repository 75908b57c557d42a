# Lets this directory be validated on its own; the docs show only the example.
terraform {
  required_providers {
    flipbook = {
      source = "flipbook/flipbook"
    }
  }
}
