"""The auth API (session-based): sign up, log in, log out, who am I."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.login_backoff import remember_device
from accounts.models import DISPLAY_NAME_MAX_LENGTH, USERNAME_TAKEN, User, username_taken
from accounts.validators import validate_display_name
from apikit.throttles import LoginThrottle, SignupThrottle
from apikit.views import BaseAPIView


class PlayerSerializer(serializers.ModelSerializer):
    ban_reason = serializers.SerializerMethodField(help_text="Why you are banned, if you are.")

    class Meta:
        model = User
        fields = ("id", "username", "display_name", "is_staff", "is_banned", "ban_reason")
        read_only_fields = fields

    def get_ban_reason(self, user: User) -> str | None:
        return user.ban_notice if user.is_banned else None


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(
        r"^[\w.@+-]+\Z",
        max_length=150,
        error_messages={"invalid": "A username uses letters, digits and @ . + - _ only."},
    )
    display_name = serializers.CharField(max_length=DISPLAY_NAME_MAX_LENGTH)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="")

    def validate_username(self, value: str) -> str:
        if username_taken(value):  # folded: KATE, \u212aate and kate are one name
            raise serializers.ValidationError(USERNAME_TAKEN)
        return value

    def validate_display_name(self, value: str) -> str:
        try:
            return validate_display_name(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        probe = User(username=attrs["username"], display_name=attrs["display_name"])
        try:
            validate_password(attrs["password"], user=probe)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": exc.messages}) from exc
        return attrs


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


class SignupView(BaseAPIView):
    throttle_classes = [SignupThrottle]

    @extend_schema(
        request=SignupSerializer,
        responses={201: _ME},
        summary="Create an account and log in",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            services.sign_up(request._request, **serializer.validated_data)
        except DjangoValidationError as exc:  # a look-alike signed up since the check
            if hasattr(exc, "error_dict"):
                raise serializers.ValidationError(exc.message_dict) from exc
            raise serializers.ValidationError({"display_name": exc.messages}) from exc
        return Response(_me(request), status=status.HTTP_201_CREATED)


class LoginView(BaseAPIView):
    throttle_classes = [LoginThrottle]

    @extend_schema(
        request=LoginSerializer, responses={200: _ME}, summary="Log in", tags=["auth"]
    )
    def post(self, request: Request) -> Response:
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if user is None:
            retry_after = getattr(request._request, "login_retry_after", None)
            if retry_after is not None:  # the account's wait (accounts/login_backoff.py)
                raise Throttled(retry_after, "Too many failed log-ins for this account.")
            return Response(
                {"detail": "Wrong username or password."}, status=status.HTTP_400_BAD_REQUEST
            )
        services.log_in(request._request, user)
        response = Response(_me(request))
        remember_device(response, user)
        return response


class LogoutView(BaseAPIView):
    @extend_schema(request=None, responses={200: _ME}, summary="Log out", tags=["auth"])
    def post(self, request: Request) -> Response:
        services.log_out(request._request)
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
