"""The auth API (session-based): sign up, log in, log out, who am I; and the mail provider's
feedback (bounces and complaints, with a shared secret: docs/operations.md, "Mail").

Sign-up, log-in and log-out are thin wrappers over django-allauth's forms and flows (the
browser client speaks allauth's headless API itself, docs/accounts.md); "who am I" is ours.
"""

from __future__ import annotations

import hmac
from typing import Any

from allauth.account.adapter import get_adapter as get_account_adapter
from allauth.account.forms import SignupForm
from allauth.account.internal import flows
from allauth.account.internal.flows.reauthentication import did_recently_reauthenticate
from allauth.account.internal.stagekit import get_pending_stage
from allauth.core.internal.ratelimit import parse_rates
from allauth.headless.account.inputs import LoginInput
from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.decorators import method_decorator
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied, Throttled
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.login_backoff import remember_device
from accounts.models import DISPLAY_NAME_MAX_LENGTH, SuppressionReason, User
from accounts.player_settings import PlayerSettingsSerializer
from accounts.stages import SignupEmailVerificationStage
from accounts.suppression import suppress_address
from apikit.parsers import JSONParser
from apikit.schema import ERROR
from apikit.throttles import (
    AccountDataThrottle,
    DisplayNameThrottle,
    LoginThrottle,
    SignupThrottle,
)
from apikit.views import BaseAPIView

SECOND_FACTOR_NEEDED = gettext_lazy(
    "This account has a second factor: finish the log-in with it "
    "(POST /_allauth/browser/v1/auth/2fa/authenticate, or the log-in page)."
)
# Said alike whether the sign-up's address was free or another account's (docs/accounts.md).
CONFIRM_EMAIL_FIRST = gettext_lazy(
    "Confirm your email address first: follow the link in the mail we sent to the "
    "address given at sign-up, then log in."
)


# The phrase to type, in English or as the page shows it in the player's language.
DELETE_CONFIRMATION = "delete my account"
TOO_MANY_FAILED_LOG_INS = gettext_lazy("Too many failed log-ins for this account.")


def translated_confirmation() -> str:
    """The phrase as the page shows it, in the active language."""
    return gettext("delete my account")


def delete_confirmations() -> set[str]:
    """The phrases that confirm a deletion: English, and the active language's."""
    return {DELETE_CONFIRMATION, translated_confirmation()}


class PlayerSerializer(serializers.ModelSerializer):
    ban_reason = serializers.SerializerMethodField(help_text="Why you are banned, if you are.")

    class Meta:
        model = User
        fields = ("id", "username", "display_name", "is_staff", "is_banned", "ban_reason")
        read_only_fields = fields

    def get_ban_reason(self, user: User) -> str | None:
        return user.ban_notice if user.is_banned else None


class SignupSerializer(serializers.Serializer):
    """The shape of a sign-up; the rules (folded usernames, look-alike display names,
    password strength) are allauth's form with our adapter (accounts/adapter.py)."""

    username = serializers.CharField(max_length=150)
    display_name = serializers.CharField(max_length=DISPLAY_NAME_MAX_LENGTH)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)


def _me(request: Request) -> dict[str, Any]:
    # The Django request, not DRF's: DRF caches the user it saw before login/logout.
    user = request._request.user
    return {
        "authenticated": user.is_authenticated,
        "player": PlayerSerializer(user).data if user.is_authenticated else None,
    }


_ME = inline_serializer(
    "Me",
    {"authenticated": serializers.BooleanField(), "player": PlayerSerializer(allow_null=True)},
)


_SIGNUP_ANSWER = inline_serializer(
    "SignupAnswer",
    {
        "authenticated": serializers.BooleanField(),
        "player": PlayerSerializer(allow_null=True),
        "confirm_email": serializers.BooleanField(
            help_text="An email address was given: the account logs in once the link "
            "mailed to it is followed (not before; the same answer whoever holds it)."
        ),
    },
)


_FIELD_NAMES = {"password1": "password", "login": "username"}


def _form_errors(form: Any) -> dict[str, list[str]]:
    """allauth's form errors under the API's field names (``__all__``: non_field_errors)."""
    errors: dict[str, list[str]] = {}
    for field, messages in form.errors.items():
        name = "non_field_errors" if field == "__all__" else _FIELD_NAMES.get(field, field)
        errors[name] = list(messages)
    return errors


class SignupView(BaseAPIView):
    """Kept for the scripts that use it: allauth's sign-up form and flow, answered in this
    API's shape. The browser client uses allauth's headless API (docs/api.md).

    An email address another account holds is answered exactly as a free one: the account
    is made without it, its owner is mailed, and neither logs in until an address is
    confirmed (accounts/forms.py, accounts/stages.py)."""

    throttle_classes = [SignupThrottle]

    @extend_schema(
        request=SignupSerializer,
        responses={
            201: OpenApiResponse(
                _SIGNUP_ANSWER,
                description="Created. Without an email address: logged in. With one: "
                "not logged in until the link mailed to it is followed (`confirm_email`); "
                "the same answer whether or not the address already has an account.",
            ),
            400: OpenApiResponse(ERROR, description="A field is missing or refused."),
        },
        summary="Create an account (and log in, unless an email address is to be confirmed)",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        form = SignupForm(
            data={
                "username": data["username"],
                "display_name": data["display_name"],
                "password1": data["password"],
                "email": data["email"],
            }
        )
        if not form.is_valid():
            raise serializers.ValidationError(_form_errors(form))
        try:
            user, _ = form.try_save(request._request)
        except DjangoValidationError as exc:  # a look-alike signed up since the check
            if hasattr(exc, "error_dict"):
                raise serializers.ValidationError(exc.message_dict) from exc
            raise serializers.ValidationError({"display_name": exc.messages}) from exc
        if user is not None:
            flows.signup.complete_signup(request._request, user=user)
        answer = {**_me(request), "confirm_email": bool(data["email"])}
        response = Response(answer, status=status.HTTP_201_CREATED)
        if user is not None and request._request.user.is_authenticated:
            remember_device(response, user)
        return response


def address_limit_wait() -> int:
    """Seconds until allauth's per-address limit on failed log-ins (ACCOUNT_RATE_LIMITS)
    surely lets a try in again: its longest window."""
    rates = parse_rates(settings.ACCOUNT_RATE_LIMITS.get("login_failed"))
    return max((int(rate.duration) for rate in rates), default=60)


class LoginView(BaseAPIView):
    """Kept for the scripts that use it: allauth's password log-in (with the per-account
    wait of accounts/login_backoff.py). An account with a second factor cannot finish
    here: 401, and the log-in goes on through the headless API (docs/accounts.md)."""

    throttle_classes = [LoginThrottle]

    @extend_schema(
        request=LoginSerializer,
        responses={
            200: _ME,
            400: OpenApiResponse(ERROR, description="Wrong username or password."),
            401: OpenApiResponse(
                ERROR,
                description="Right password; the account's second factor is still to "
                "come (headless API), or its sign-up's email address is still to be "
                "confirmed.",
            ),
        },
        summary="Log in",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        django_request = request._request
        if django_request.user.is_authenticated:
            get_account_adapter().logout(django_request)
        form = LoginInput(data=serializer.validated_data)
        if not form.is_valid():
            retry_after = getattr(django_request, "login_retry_after", None)
            if retry_after is not None:  # the account's wait (accounts/login_backoff.py)
                raise Throttled(retry_after, str(TOO_MANY_FAILED_LOG_INS))
            for error in form.non_field_errors().as_data():
                if error.code == "too_many_login_attempts":  # allauth's, per address
                    raise Throttled(address_limit_wait(), " ".join(error.messages))
            return Response(
                {"detail": gettext("Wrong username or password.")},
                status=status.HTTP_400_BAD_REQUEST,
            )
        flows.login.perform_password_login(django_request, form.cleaned_data, form.login)
        if not django_request.user.is_authenticated:
            pending = get_pending_stage(django_request)
            waiting_for = (
                CONFIRM_EMAIL_FIRST
                if pending is not None and pending.key == SignupEmailVerificationStage.key
                else SECOND_FACTOR_NEEDED
            )
            return Response({"detail": str(waiting_for)}, status=status.HTTP_401_UNAUTHORIZED)
        response = Response(_me(request))
        remember_device(response, django_request.user)
        return response


class LogoutView(BaseAPIView):
    @extend_schema(request=None, responses={200: _ME}, summary="Log out", tags=["auth"])
    def post(self, request: Request) -> Response:
        get_account_adapter().logout(request._request)
        return Response(_me(request))


@method_decorator(ensure_csrf_cookie, name="dispatch")
class MeView(APIView):
    @extend_schema(
        responses={200: _ME},
        summary="Who is logged in (also sets the csrftoken cookie)",
        tags=["auth"],
    )
    def get(self, request: Request) -> Response:
        return Response(_me(request))


class DisplayNameSerializer(serializers.Serializer):
    display_name = serializers.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH, help_text="The new name shown on the boards."
    )


class DisplayNameView(BaseAPIView):
    """Change your display name: the look-alike rule of sign-up, and a daily limit
    (THROTTLE_DISPLAY_NAME), so a name cannot be swapped around to confuse the boards."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [DisplayNameThrottle]

    @extend_schema(
        request=DisplayNameSerializer,
        responses={
            200: _ME,
            400: OpenApiResponse(
                ERROR, description="Taken, too close to another player's, or not a valid name."
            ),
            403: OpenApiResponse(ERROR, description="Not logged in."),
        },
        summary="Change your display name",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = DisplayNameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated
        try:
            player = services.change_display_name(user, serializer.validated_data["display_name"])
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"display_name": exc.messages}) from exc
        return Response({"authenticated": True, "player": PlayerSerializer(player).data})


class ExportView(BaseAPIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [AccountDataThrottle]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="Everything we hold about you, as a JSON file "
                "(docs/accounts.md): profile, email addresses, second factors (named, "
                "never their keys), every game with its move log, closed flags on your "
                "games, reports you made."
            ),
            403: OpenApiResponse(ERROR, description="Not logged in."),
        },
        summary="Download your data",
        tags=["auth"],
    )
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated
        response = Response(services.export_data(user))
        response["Content-Disposition"] = f'attachment; filename="yukon-daily-{user.pk}.json"'
        response["Cache-Control"] = "no-store"
        return response


class DeleteAccountSerializer(serializers.Serializer):
    confirm = serializers.CharField(
        max_length=64,
        help_text=f'Exactly "{DELETE_CONFIRMATION}" (or the phrase as the page shows it in '
        "the request's language).",
    )
    password = serializers.CharField(
        max_length=128,
        required=False,
        trim_whitespace=False,
        write_only=True,
        help_text="Your password, unless you confirmed who you are in the last minutes "
        "(/accounts/reauthenticate/, with a password, a code or a passkey).",
    )

    def validate_confirm(self, value: str) -> str:
        if value not in delete_confirmations():
            raise serializers.ValidationError(
                gettext('Type "%(phrase)s" to confirm.') % {"phrase": translated_confirmation()}
            )
        return value


class DeleteAccountView(BaseAPIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [AccountDataThrottle]

    @extend_schema(
        request=DeleteAccountSerializer,
        responses={
            200: _ME,
            400: OpenApiResponse(ERROR, description="Not confirmed, or a wrong password."),
            401: OpenApiResponse(
                ERROR, description="Confirm who you are first: `reauthenticate` names the page."
            ),
            403: OpenApiResponse(ERROR, description="Not logged in."),
        },
        summary="Delete your account (after confirming who you are)",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = DeleteAccountSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        django_request = request._request
        user = django_request.user
        assert isinstance(user, User)  # IsAuthenticated
        password = serializer.validated_data.get("password")
        if password:
            if not get_account_adapter().reauthenticate(user, password):
                retry_after = getattr(django_request, "login_retry_after", None)
                if retry_after is not None:
                    raise Throttled(retry_after, str(TOO_MANY_FAILED_LOG_INS))
                raise serializers.ValidationError({"password": [gettext("Wrong password.")]})
        elif not did_recently_reauthenticate(django_request):
            return Response(
                {
                    "detail": gettext("Confirm who you are first (your password, or on the page)."),
                    "reauthenticate": "/accounts/reauthenticate/?next=/account/",
                },
                status=status.HTTP_401_UNAUTHORIZED,
            )
        services.delete_account(user)
        get_account_adapter().logout(django_request)
        return Response(_me(request))


# ----- mail feedback (docs/operations.md, "Mail"): the provider's bounces and complaints

MAIL_FEEDBACK_HEADER = "X-Mail-Feedback-Secret"


class MailFeedbackSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=SuppressionReason.choices,
        help_text="`bounce`: a hard (permanent) bounce; `complaint`: marked as spam.",
    )
    address = serializers.EmailField(max_length=254, help_text="The address to stop mailing.")


_SUPPRESSED = inline_serializer(
    "SuppressedAddress",
    {
        "address": serializers.EmailField(help_text="As stored: folded to lower case."),
        "reason": serializers.ChoiceField(
            choices=SuppressionReason.choices,
            help_text="A complaint outranks a bounce: it stays a complaint.",
        ),
        "created_at": serializers.DateTimeField(),
    },
)


class MailFeedbackView(APIView):
    """The mail provider's feedback (or a forwarder of it): mail to the address stops.
    Called by a machine with a shared secret, not by a browser: no session, no CSRF."""

    authentication_classes: list[type] = []
    permission_classes: list[type] = []

    @extend_schema(
        request=MailFeedbackSerializer,
        parameters=[
            OpenApiParameter(
                MAIL_FEEDBACK_HEADER,
                str,
                OpenApiParameter.HEADER,
                required=True,
                description="The shared secret, MAIL_FEEDBACK_SECRET.",
            )
        ],
        responses={
            200: OpenApiResponse(_SUPPRESSED, description="Suppressed (or already was)."),
            400: OpenApiResponse(ERROR, description="Not a kind we know, or not an address."),
            403: OpenApiResponse(
                ERROR, description="A missing or wrong secret, or MAIL_FEEDBACK_SECRET unset."
            ),
        },
        summary="Feed back a bounce or a complaint: stop mail to the address",
        tags=["mail"],
    )
    def post(self, request: Request) -> Response:
        secret = str(settings.MAIL_FEEDBACK_SECRET)
        given = request.headers.get(MAIL_FEEDBACK_HEADER, "")
        if not secret or not hmac.compare_digest(given.encode(), secret.encode()):
            raise PermissionDenied(f"A missing or wrong {MAIL_FEEDBACK_HEADER} header.")
        serializer = MailFeedbackSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = suppress_address(
            serializer.validated_data["address"], serializer.validated_data["kind"]
        )
        return Response(
            {
                "address": entry.address,
                "reason": entry.reason,
                "created_at": entry.created_at.isoformat(),
            }
        )


# ----- the player's settings (docs/frontend.md, "Settings"): they follow the player


def _settings_schema(summary: str, *, writes: bool) -> Any:
    responses: dict[int, Any] = {
        200: OpenApiResponse(
            PlayerSettingsSerializer,
            description="The settings the account holds: only the keys the player chose "
            "(a key left out takes its default).",
        ),
        403: OpenApiResponse(ERROR, description="Not logged in."),
    }
    if writes:
        responses[400] = OpenApiResponse(
            ERROR, description="An unknown key, or a value of the wrong type or out of range."
        )
    return extend_schema(
        request=PlayerSettingsSerializer if writes else None,
        responses=responses,
        summary=summary,
        tags=["auth"],
    )


class PlayerSettingsView(BaseAPIView):
    """The player's settings of the site, kept in the account so they follow the player to
    another browser; every page a logged-in player loads carries them (base.html)."""

    permission_classes = [IsAuthenticated]
    # JSON only: a form's fields are all text, and the settings' types are strict (a
    # boolean is true or false, never "false"); a form body is a 415.
    parser_classes = [JSONParser]

    @_settings_schema("Your settings", writes=False)
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated
        return Response(user.settings)

    @_settings_schema("Replace your settings (a key left out takes its default)", writes=True)
    def put(self, request: Request) -> Response:
        return self._save(request, replace=True)

    @_settings_schema("Change some of your settings (the others stay)", writes=True)
    def patch(self, request: Request) -> Response:
        return self._save(request, replace=False)

    def _save(self, request: Request, *, replace: bool) -> Response:
        serializer = PlayerSettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated
        return Response(services.save_settings(user, serializer.validated_data, replace=replace))
