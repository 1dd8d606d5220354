"""How django-allauth runs our accounts: usernames folded, display names checked, the
per-account log-in wait, the device cookie and the guest's games after a log-in.

allauth owns the flows (sign-up, log-in, email, passwords, second factors); these
adapters are where it asks the site, so every way in (the headless API, allauth's pages,
the old ``/api/auth/`` endpoints, an OpenID Connect sign-in) keeps the same rules. The
account mail allauth writes leaves through Celery (accounts/tasks.py), never inside a
request.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import urlencode

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.utils import get_next_redirect_url
from allauth.core import context as allauth_context
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.core.internal.httpkit import is_headless_request
from allauth.headless.adapter import DefaultHeadlessAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from accounts.even_timing import answer_no_sooner_than
from accounts.forms import SignupDetailsForm
from accounts.language import language_at_sign_up
from accounts.login_backoff import fold, remember_device
from accounts.models import USERNAME_TAKEN, User, public_name, username_taken
from accounts.services import lock_names
from accounts.signals import guest_logged_in, guest_signed_up
from accounts.tasks import queue_mail
from accounts.validators import validate_display_name

TOO_MANY_FAILURES = gettext_lazy(
    "Too many failed log-ins for this account. Try again in %(seconds)s s."
)


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        # in the /login/ form's words ("Log-in name"), not "The username and/or password
        # you specified are not correct."
        "username_password_mismatch": gettext_lazy("Wrong log-in name or password."),
    }

    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=True)  # validators only
        if not shallow and username_taken(username):  # folded: KATE, \u212aate, kate
            raise ValidationError(USERNAME_TAKEN)
        return username

    def save_user(
        self, request: HttpRequest, user: AbstractBaseUser, form: BaseForm, commit: bool = True
    ) -> AbstractBaseUser:
        """A new account, with its display name, checked again under locks on the name
        keys (PostgreSQL): two sign-ups of look-alike names at one moment cannot both pass
        the form's check."""
        assert isinstance(user, User)
        user.display_name = form.cleaned_data.get("display_name") or form.cleaned_data.get(
            "username", ""
        )
        user = super().save_user(request, user, form, commit=False)
        assert isinstance(user, User)
        user.language = language_at_sign_up()  # the sign-up page's: mail to come is in it
        user.awaiting_email_confirmation = (
            isinstance(form, SignupDetailsForm) and form.awaits_email_confirmation()
        )
        if user.awaiting_email_confirmation:  # free or taken: answered alike, in time too
            answer_no_sooner_than(request, settings.ACCOUNT_SIGNUP_ANSWER_SECONDS)
        if not commit:
            return user
        try:
            with transaction.atomic():
                lock_names(username=user.username, display_name=user.display_name)
                if username_taken(user.username):
                    raise ValidationError({"username": [USERNAME_TAKEN]})
                user.display_name = validate_display_name(user.display_name)
                try:
                    with transaction.atomic():
                        user.save()
                except IntegrityError as exc:  # a username taken a moment ago
                    raise ValidationError(
                        gettext("That username or display name is taken.")
                    ) from exc
        except ValidationError as exc:  # a look-alike signed up since the form's check
            self._refuse_sign_up(request, exc)
        return user

    @staticmethod
    def _refuse_sign_up(request: HttpRequest, exc: ValidationError) -> None:
        """The form had passed, so allauth's views would not catch this: answer 400 here
        (the old /api/auth/signup/ catches the ValidationError itself)."""
        if request.path.startswith("/api/"):
            raise exc
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"display_name": exc.messages}
        field, messages = next(iter(errors.items()))
        if is_headless_request(request):
            body = {
                "status": 400,
                "errors": [{"message": m, "code": "invalid", "param": field} for m in messages],
            }
            raise ImmediateHttpResponse(JsonResponse(body, status=400))
        page = render(request, "allauth/refused.html", {"messages_refused": messages}, status=400)
        raise ImmediateHttpResponse(page)

    def clean_email(self, email: str) -> str:
        """Every form that takes an address (sign-up, password reset, adding one) calls
        this: its answer waits for the floor, so what is then done for an address with an
        account takes no visible time (accounts/even_timing.py)."""
        if email:
            answer_no_sooner_than(self.request, settings.ACCOUNT_EMAIL_ANSWER_SECONDS)
        return super().clean_email(email)

    def get_login_stages(self) -> list[str]:
        """allauth's stages, its email verification made mandatory for an account whose
        sign-up gave an address (accounts/stages.py)."""
        return [
            "accounts.stages.SignupEmailVerificationStage"
            if path == "allauth.account.stages.EmailVerificationStage"
            else path
            for path in super().get_login_stages()
        ]

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """allauth's mail, rendered here as allauth does, then sent by a Celery worker once
        the transaction commits: the answer never waits for the SMTP server, so a password
        reset for an address we know is not slower than one for an address we do not.
        Written in the player's language when the account has chosen one, else in the
        request's (the worker only sends it)."""
        request = allauth_context.request
        message_context = {
            "request": request,
            "email": email,
            "current_site": get_current_site(request),
            **context,
        }
        chosen = getattr(context.get("user"), "language", "")
        language = chosen if chosen in dict(settings.LANGUAGES) else translation.get_language()
        with translation.override(language or settings.LANGUAGE_CODE):
            message = self.render_mail(template_prefix, email, message_context)
        queue_mail(message)

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation: Any) -> str:
        """The mailed link, once followed, leads to the log-in page and on to where the
        sign-up set out for (an invite, issue 39): our page sends its ``next`` in the
        request's query (allauth's headless API ignores it), allauth's form in a field, and
        allauth's check keeps only an address on this site."""
        url: str = super().get_email_confirmation_url(request, emailconfirmation)
        after = get_next_redirect_url(request) if request is not None else None
        if not after:
            return url
        log_in_then = f"{settings.LOGIN_URL}?{urlencode({'next': after})}"
        return f"{url}?{urlencode({'next': log_in_then})}"

    def authenticate(self, request: HttpRequest, **credentials: Any) -> AbstractBaseUser | None:
        user = super().authenticate(request, **credentials)
        retry_after = getattr(request, "login_retry_after", None)
        if user is None and retry_after is not None:  # accounts/login_backoff.py
            raise ValidationError(str(TOO_MANY_FAILURES) % {"seconds": retry_after})
        return user

    def pre_login(
        self, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any
    ) -> HttpResponse | None:
        """Every sign-up passes here once (allauth's ``complete_signup``, whatever the way
        in), in the guest's session still: the guest's daily games go to the new account."""
        response = super().pre_login(request, user, **kwargs)
        guest_session_key = request.session.session_key
        if response is None and kwargs.get("signup") and guest_session_key:
            guest_signed_up.send(sender=User, user=user, session_key=guest_session_key)
        return response

    def login(self, request: HttpRequest, user: AbstractBaseUser) -> None:
        """Log in; practice games played as a guest become the player's."""
        guest_session_key = request.session.session_key
        super().login(request, user)
        if guest_session_key:
            guest_logged_in.send(sender=User, user=user, session_key=guest_session_key)

    def add_message(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        """Messages only for allauth's pages: a log-in through the JSON APIs would leave
        "Successfully signed in" waiting for the next page that shows messages."""
        if request.path.startswith(("/api/", "/_allauth/")):
            return
        super().add_message(request, *args, **kwargs)

    def post_login(self, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any) -> Any:
        response: HttpResponse = super().post_login(request, user, **kwargs)
        remember_device(response, user)  # this browser counts its own failed log-ins
        return response


@dataclasses.dataclass
class PlayerData:
    id: int | None
    username: str
    display: str
    display_name: str
    email: str | None
    has_usable_password: bool
    is_staff: bool


class HeadlessAdapter(DefaultHeadlessAdapter):
    """The user in the headless API's answers carries the display name and staff flag."""

    def get_user_dataclass(self) -> type:
        return PlayerData

    def user_as_dataclass(self, user: AbstractBaseUser) -> Any:
        assert isinstance(user, User)
        email = EmailAddress.objects.get_primary_email(user) if user.pk else None
        return PlayerData(
            id=user.pk,
            username=user.username,
            display=public_name(user),
            display_name=user.display_name,
            email=email or None,
            has_usable_password=user.has_usable_password(),
            is_staff=user.is_staff,
        )


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    """A first sign-in through an OpenID Connect provider picks a username and a display
    name on allauth's sign-up form (SOCIALACCOUNT_AUTO_SIGNUP is off); the provider's
    preferred username is only a suggestion, folded like any other."""

    def populate_user(self, request: HttpRequest, sociallogin: Any, data: dict[str, Any]) -> Any:
        user = super().populate_user(request, sociallogin, data)
        if user.username and username_taken(fold(user.username)):
            user.username = ""
        return user
