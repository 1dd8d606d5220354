"""Admin registration of players. Bans go through the moderation actions (with a reason
and an audit row), so ``is_banned`` is read-only here."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_banned", "date_joined")
    list_filter = ("is_staff", "is_banned", "is_active")
    search_fields = ("username", "display_name", "email")
    readonly_fields = ("is_banned",)
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Player", {"fields": ("display_name", "is_banned")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "display_name", "password1", "password2"),
            },
        ),
    )
