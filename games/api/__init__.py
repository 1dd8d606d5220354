"""The games API: DRF serializers for validation and shapes, thin views over services."""
