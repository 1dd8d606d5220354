"""Views of the browser client: they only render pages; game logic lives in the API."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html")
