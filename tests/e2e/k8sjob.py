#!/usr/bin/env python3
"""k8sjob.py MANIFEST.yaml: validates a batch/v1 Job against the Job
schema, offline: a JSON Schema (draft 7) built from the API types of
Debian's python3-kubernetes (the client generated from Kubernetes' own
OpenAPI specification): every field named must exist with its type
(additionalProperties false), every field the API requires must be there.
Then the rules the API server adds for a Job (restartPolicy Never or
OnFailure, completionMode NonIndexed or Indexed, an Indexed Job's
completions), and that the distsec command shards the list as the Job
runs it: --shard $((JOB_COMPLETION_INDEX + 1))/N with N = completions,
its list and report on volumes the container mounts (the report's
writable).  Prints each fault; exits 1 on any."""
import inspect, re, shlex, sys
import jsonschema, yaml
import kubernetes.client as k8s

PRIMITIVE = {'str': {'type': 'string'}, 'int': {'type': 'integer'}, 'bool': {'type': 'boolean'},
             'float': {'type': 'number'}, 'datetime': {'type': 'string'}, 'date': {'type': 'string'},
             'object': {}}


def schema_of(name, defs):
    if name in PRIMITIVE:
        return PRIMITIVE[name]
    m = re.fullmatch(r'list\[(.+)\]', name)
    if m:
        return {'type': 'array', 'items': schema_of(m.group(1), defs)}
    m = re.fullmatch(r'dict\(str, (.+)\)', name)
    if m:
        return {'type': 'object', 'additionalProperties': schema_of(m.group(1), defs)}
    if name not in defs:
        cls = getattr(k8s, name)
        defs[name] = None   # a recursive type refers to itself
        props, required = {}, []
        for attr, typ in cls.openapi_types.items():
            key = cls.attribute_map[attr]
            props[key] = schema_of(typ, defs)
            # the generated setter refuses None for a field the API requires
            if 'must not be `None`' in inspect.getsource(getattr(cls, attr).fset):
                required.append(key)
        defs[name] = {'type': 'object', 'properties': props, 'required': required,
                      'additionalProperties': False}
    return {'$ref': '#/definitions/' + name}


def faults(job):
    defs = {}
    root = schema_of('V1Job', defs)
    schema = dict(root, definitions=defs)
    out = ['%s: %s' % ('.'.join(str(p) for p in e.absolute_path) or '(top)', e.message)
           for e in jsonschema.Draft7Validator(schema).iter_errors(job)]
    if out:
        return out
    if (job.get('apiVersion'), job.get('kind')) != ('batch/v1', 'Job'):
        out.append('not a batch/v1 Job: %s %s' % (job.get('apiVersion'), job.get('kind')))
    spec = job.get('spec') or {}
    pod = (spec.get('template') or {}).get('spec') or {}
    if pod.get('restartPolicy') not in ('Never', 'OnFailure'):
        out.append('spec.template.spec.restartPolicy: a Job takes Never or OnFailure, not %r'
                   % pod.get('restartPolicy'))
    mode = spec.get('completionMode', 'NonIndexed')
    if mode not in ('NonIndexed', 'Indexed'):
        out.append('spec.completionMode: NonIndexed or Indexed, not %r' % mode)
    n = spec.get('completions')
    if mode == 'Indexed' and not (isinstance(n, int) and n > 0):
        out.append('spec.completions: an Indexed Job needs completions > 0')
    volumes = {v['name'] for v in pod.get('volumes') or []}
    for c in pod.get('containers') or []:
        mounts = {}
        for m in c.get('volumeMounts') or []:
            if m['name'] not in volumes:
                out.append('container %s mounts %s, which is no volume of the pod' % (c['name'], m['name']))
            mounts[m['mountPath']] = m.get('readOnly', False)
        argv = c.get('command') or []
        # the shell's arithmetic as one word, for shlex
        line = argv[-1] if argv[:2] == ['sh', '-c'] else shlex.join(argv)
        words = shlex.split(re.sub(r'\$\(\(\s*JOB_COMPLETION_INDEX\s*\+\s*1\s*\)\)', 'INDEX+1', line))
        if 'distsec' not in words:
            continue

        def arg(opt):
            return words[words.index(opt) + 1] if opt in words and words.index(opt) + 1 < len(words) else None

        def mounted(path, writable):
            return any(path.startswith(p.rstrip('/') + '/') and not (writable and ro) for p, ro in mounts.items())

        m = re.fullmatch(r'INDEX\+1/(\d+)', arg('--shard') or '')
        if mode != 'Indexed' or not m:
            out.append('container %s: --shard is not $((JOB_COMPLETION_INDEX + 1))/N of an Indexed Job' % c['name'])
        elif int(m.group(1)) != n:
            out.append('container %s: --shard .../%s, but the Job runs %s completions' % (c['name'], m.group(1), n))
        lst, rep = arg('--files-from'), arg('-o')
        if not lst or not mounted(lst, False):
            out.append('container %s: the list %s is on no volume it mounts' % (c['name'], lst))
        if not rep or not mounted(rep, True):
            out.append('container %s: the report %s is on no volume it mounts writable' % (c['name'], rep))
    return out


if __name__ == '__main__':
    bad = faults(yaml.safe_load(open(sys.argv[1])))
    for f in bad:
        print(f)
    sys.exit(1 if bad else 0)
