"""The staff back office, a small Django app next to the API."""

from django.db import models


class Staff(models.Model):
    email = models.EmailField(unique=True)
    phone = models.CharField(max_length=32, blank=True)


class Ticket(models.Model):
    title = models.CharField(max_length=200)
    assignee = models.ForeignKey(Staff, on_delete=models.SET_NULL, null=True)
    watchers = models.ManyToManyField(Staff, related_name="watched_tickets")
