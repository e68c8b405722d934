#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The checks the shell tests make with kubectl where a kubectl lacks the feature (Debian's 1.20
has no `wait --for=jsonpath` and no `create token`), made with the Python Kubernetes client
instead, so that they run with every kubectl.

  pyclient.py wait API_VERSION KIND NAMESPACE NAME PATH VALUE SECONDS
      Watches the object until the dotted PATH (status.state.phase) equals VALUE; exit 0 then,
      1 with what it last saw when SECONDS pass. NAMESPACE "" for a cluster-scoped kind.
  pyclient.py token NAMESPACE SERVICEACCOUNT SECONDS
      A TokenRequest: prints the token, or the API server's message and exits 1.
KUBECONFIG names the kubeconfig; its current context is used.
"""
import json
import os
import sys

from kubernetes import client, config, dynamic
from kubernetes.client.rest import ApiException


def field(obj, path):
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj


def wait(api_version, kind, namespace, name, path, value, seconds):
    dyn = dynamic.DynamicClient(client.ApiClient())
    resource = dyn.resources.get(api_version=api_version, kind=kind)
    seen = None
    # A watch without a resourceVersion starts with the object as it is, then its changes.
    for event in resource.watch(namespace=namespace or None,
                                field_selector=f"metadata.name={name}", timeout=int(seconds)):
        seen = field(event["raw_object"], path)
        if str(seen) == value:
            print(f"{kind} {name}: {path} = {seen}")
            return 0
    print(f"{kind} {name}: {path} still {seen!r} after {seconds} s (waited for {value!r})")
    return 1


def token(namespace, account, seconds):
    try:
        tr = client.CoreV1Api().create_namespaced_service_account_token(
            account, namespace,
            client.AuthenticationV1TokenRequest(spec=client.V1TokenRequestSpec(
                audiences=[], expiration_seconds=int(seconds))))
    except ApiException as e:
        try:
            print(json.loads(e.body).get("message", e.body))
        except ValueError:
            print(e.body)
        return 1
    print(tr.status.token)
    return 0


def main():
    config.load_kube_config(config_file=os.environ.get("KUBECONFIG"))
    command, args = sys.argv[1], sys.argv[2:]
    if command == "wait" and len(args) == 7:
        return wait(*args)
    if command == "token" and len(args) == 3:
        return token(*args)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
