# Sphinx configuration of the collection's docs site, built by scripts/docs (docs/developing.md, "Docs site").
# scripts/docs puts the plugin pages antsibull-docs writes and the guides (docs/*.md) in the source folder.

project = 'strata.hier'
copyright = 'strata.hier contributors'  # pylint: disable=redefined-builtin
title = 'strata.hier'
html_short_title = 'strata.hier'

extensions = ['sphinx_antsibull_ext', 'myst_parser']

pygments_style = 'ansible'
highlight_language = 'YAML+Jinja'

html_theme = 'sphinx_ansible_theme'
html_show_sphinx = False
html_use_smartypants = True
html_use_modindex = False
html_use_index = False
html_copy_source = False

myst_heading_anchors = 3
default_role = 'any'
nitpicky = True

# Ansible's own docs: no intersphinx (the build runs offline, and a site build must not depend on the network).
# References into them become links to the page intersphinx would give, see resolve_ansible_reference.
ANSIBLE_DOCS = 'https://docs.ansible.com/projects/ansible/latest/'
BUILTIN_LABEL = 'ansible_collections.ansible.builtin.'
CONFIG_PAGE = 'reference_appendices/config.html'
ANSIBLE_PAGES = {'ansible_configuration_settings': CONFIG_PAGE, 'callback_plugins': 'plugins/callback.html',
                 'action_plugins': 'plugins/action.html',
                 'common_return_values': 'reference_appendices/common_return_values.html'}
"""Labels of Ansible's docs the plugin pages refer to, and their pages."""


def ansible_docs_url(reftype, target):
    """The docs.ansible.com page of an ansible.builtin plugin, a configuration setting or a labelled page."""
    if reftype == 'ref' and target.startswith(BUILTIN_LABEL):
        plugin = target[len(BUILTIN_LABEL):]
        return ANSIBLE_DOCS + 'collections/ansible/builtin/%s.html' % plugin
    if reftype == 'ref' and target in ANSIBLE_PAGES:
        return ANSIBLE_DOCS + ANSIBLE_PAGES[target]
    if reftype == 'envvar' and target.startswith('ANSIBLE_'):
        return ANSIBLE_DOCS + CONFIG_PAGE + '#envvar-' + target
    return None


def resolve_ansible_reference(app, env, node, contnode):  # pylint: disable=unused-argument
    """Sphinx's missing-reference event: Ansible's own pages as external links; anything else stays an error."""
    from docutils import nodes

    url = ansible_docs_url(node.get('reftype'), node.get('reftarget', ''))
    if url is None:
        return None
    reference = nodes.reference('', '', internal=False, refuri=url)
    reference.append(contnode)
    return reference


def setup(app):
    app.connect('missing-reference', resolve_ansible_reference)
