"""django.contrib.admin with the moderated site (listed in INSTALLED_APPS in its place)."""

from django.contrib.admin.apps import AdminConfig


class ModeratedAdminConfig(AdminConfig):
    default_site = "moderation.site.ModeratedAdminSite"
