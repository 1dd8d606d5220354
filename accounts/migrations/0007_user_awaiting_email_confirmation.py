from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_deleted_accounts"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="awaiting_email_confirmation",
            field=models.BooleanField(default=False, editable=False),
        ),
    ]
