"""Sign-up, log-in and log-out pages: thin views over accounts.services."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup_page(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        services.log_in(request, user)
        return HttpResponseRedirect("/")
    return render(request, "accounts/signup.html", {"form": form})


@require_http_methods(["GET", "POST"])
def login_page(request: HttpRequest) -> HttpResponse:
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.log_in(request, form.get_user())
        return HttpResponseRedirect("/")
    return render(request, "accounts/login.html", {"form": form})


@require_http_methods(["GET", "POST"])
def logout_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        services.log_out(request)
        return HttpResponseRedirect("/")
    return render(request, "accounts/logout.html")
