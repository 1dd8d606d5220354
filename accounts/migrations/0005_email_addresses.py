"""Accounts move to django-allauth (docs/accounts.md): each account that gave an email
address at sign-up gets allauth's record of it, unverified (nobody ever confirmed it), so
that password resets and the email page find it. Passwords and sessions need nothing:
allauth checks passwords through our backend and keeps Django's sessions."""

from django.db import migrations


def record_email_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    taken = set()  # an address two accounts gave stays with the older account only
    batch = []
    users = User.objects.exclude(email="").only("pk", "email").order_by("pk")
    for user in users.iterator(chunk_size=2000):
        email = user.email.strip()
        if not email or email.lower() in taken:
            continue
        taken.add(email.lower())
        batch.append(EmailAddress(user_id=user.pk, email=email, verified=False, primary=True))
    EmailAddress.objects.bulk_create(batch, batch_size=2000, ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_username_key"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [
        migrations.RunPython(record_email_addresses, migrations.RunPython.noop),
    ]
