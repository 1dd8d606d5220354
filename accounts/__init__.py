"""Player accounts: the custom user model with a public display name, auth API and pages."""
