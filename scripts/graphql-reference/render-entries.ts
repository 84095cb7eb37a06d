import {
  isInterfaceType,
  Kind,
  print,
  type ConstDirectiveNode,
  type DirectiveDefinitionNode,
  type EnumValueDefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type NamedTypeNode,
  type StringValueNode,
  type TypeNode,
} from 'graphql';
import { anchors } from './anchors.js';
import { isSafeUrl, renderDescription, renderInline, type CodeLinker } from './descriptions.js';
import { html, joinHtml, type SafeHtml } from './html.js';
import {
  definitionsOf,
  isExtension,
  type Definition,
  type ReferenceCatalog,
  type ReferenceModule,
} from './sdl-catalog.js';

const KIND_LABELS: Record<string, string> = {
  [Kind.SCALAR_TYPE_DEFINITION]: 'scalar',
  [Kind.OBJECT_TYPE_DEFINITION]: 'object',
  [Kind.INTERFACE_TYPE_DEFINITION]: 'interface',
  [Kind.UNION_TYPE_DEFINITION]: 'union',
  [Kind.ENUM_TYPE_DEFINITION]: 'enum',
  [Kind.INPUT_OBJECT_TYPE_DEFINITION]: 'input',
  [Kind.DIRECTIVE_DEFINITION]: 'directive',
};

/**
 * The entries of one SDL module's section: each type, extension and directive with its fields,
 * input fields, enum values and arguments, each under its schema coordinate as id, every type
 * name linked to its entry, and code in descriptions linked when it names an entry.
 */
export class EntryRenderer {
  private readonly linkCode: CodeLinker;

  constructor(private readonly catalog: ReferenceCatalog) {
    this.linkCode = (code) => {
      if (catalog.anchors.has(code)) return code;
      return catalog.rootFields.get(code) ?? null;
    };
  }

  module(module: ReferenceModule): SafeHtml {
    return html`<section
      class="reference-api"
      id="${module.id}"
      data-api="${module.title}"
      aria-labelledby="${module.id}-title"
    >
      <h2 id="${module.id}-title">${module.title}</h2>
      ${module.source ? html`<p class="source">Defined in <code>${module.source}</code></p>` : ''}
      ${module.intro ? renderDescription(module.intro, this.linkCode) : ''}
      ${module.groups.map(
        (group) =>
          html`<h3 class="group-title">${group.title}</h3>
            ${group.definitions.map((definition) => this.definition(module, definition))}`,
      )}
    </section>`;
  }

  private definition(module: ReferenceModule, definition: Definition): SafeHtml {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) return this.directiveDefinition(definition);
    const name = definition.name.value;
    const extension = isExtension(definition);
    const id = entryId(module, definition);
    const kind = extension ? 'extension' : KIND_LABELS[definition.kind]!;
    return html`<article
      class="entry${deprecated(definition.directives) ? ' is-deprecated' : ''}"
      id="${id}"
      ${extension ? '' : html` data-coordinate="${name}"`}
      data-kind="${kind}"
    >
      <h4><a class="entry-name" href="#${id}">${name}</a> <span class="kind">${kind}</span></h4>
      ${extension ? this.extensionNote(module, name) : this.description(definition.description)}
      ${this.appliedDirectives(definition.directives)} ${this.relations(definition)}
      ${this.membersOf(definition)} ${extension ? '' : this.addedByOthers(module, name)}
    </article>`;
  }

  /** The interfaces a type implements, a union's members, an interface's implementations. */
  private relations(definition: Exclude<Definition, DirectiveDefinitionNode>): SafeHtml[] {
    const relations: SafeHtml[] = [];
    if ('interfaces' in definition && definition.interfaces?.length) {
      relations.push(
        html`<p class="relation">Implements ${this.namedTypes(definition.interfaces)}</p>`,
      );
    }
    if ('types' in definition && definition.types?.length) {
      relations.push(html`<p class="relation">One of ${this.namedTypes(definition.types)}</p>`);
    }
    if (definition.kind === Kind.INTERFACE_TYPE_DEFINITION) {
      const implementations = this.implementations(definition.name.value);
      if (implementations) relations.push(implementations);
    }
    return relations;
  }

  private membersOf(definition: Exclude<Definition, DirectiveDefinitionNode>): SafeHtml | '' {
    const type = definition.name.value;
    if ('values' in definition && definition.values?.length) {
      return this.members('Values', type, definition.values);
    }
    if (!('fields' in definition) || !definition.fields?.length) return '';
    const input =
      definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ||
      definition.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION;
    return this.members(input ? 'Input fields' : 'Fields', type, definition.fields);
  }

  private extensionNote(module: ReferenceModule, type: string): SafeHtml {
    return html`<p>
      Fields the ${module.title} adds to <a href="#${anchors.type(type)}"><code>${type}</code></a
      >.
    </p>`;
  }

  /** On a type other modules extend (the root types): links to what each adds. */
  private addedByOthers(module: ReferenceModule, type: string): SafeHtml | '' {
    const others = (this.catalog.extensions.get(type) ?? []).filter(
      (extension) => extension.module !== module,
    );
    if (others.length === 0) return '';
    return html`<p class="members-title">Fields added by the APIs</p>
      <ul class="added-fields">
        ${others.map(
          ({ module: other, fields }) =>
            html`<li>
              <a href="#${other.id}">${other.title}</a>:
              ${joinHtml(
                fields.map(
                  (field) =>
                    html`<a href="#${anchors.member(type, field)}"><code>${field}</code></a>`,
                ),
                ', ',
              )}
            </li>`,
        )}
      </ul>`;
  }

  private implementations(name: string): SafeHtml | '' {
    const type = this.catalog.schema.getType(name);
    if (!isInterfaceType(type)) return '';
    const { objects, interfaces } = this.catalog.schema.getImplementations(type);
    const names = [...objects, ...interfaces].map((implementation) => implementation.name);
    if (names.length === 0) return '';
    return html`<p class="relation">
      Implemented by
      ${joinHtml(
        names.map((implementation) => this.typeLink(implementation)),
        ', ',
      )}
    </p>`;
  }

  private members(
    title: string,
    type: string,
    members: readonly (FieldDefinitionNode | InputValueDefinitionNode | EnumValueDefinitionNode)[],
  ): SafeHtml {
    return html`<p class="members-title">${title}</p>
      <ul class="members">
        ${members.map((member) => this.member(type, member))}
      </ul>`;
  }

  private member(
    type: string,
    member: FieldDefinitionNode | InputValueDefinitionNode | EnumValueDefinitionNode,
  ): SafeHtml {
    const name = member.name.value;
    const id = anchors.member(type, name);
    const kind =
      member.kind === Kind.ENUM_VALUE_DEFINITION
        ? 'enum value'
        : member.kind === Kind.INPUT_VALUE_DEFINITION
          ? 'input field'
          : 'field';
    const signature =
      member.kind === Kind.ENUM_VALUE_DEFINITION
        ? html`<a class="entry-name" href="#${id}">${name}</a>`
        : html`<a class="entry-name" href="#${id}">${name}</a>:
            ${this.typeExpression(member.type)}${
              member.kind === Kind.INPUT_VALUE_DEFINITION ? defaultValue(member) : ''
            }`;
    const args = member.kind === Kind.FIELD_DEFINITION ? (member.arguments ?? []) : [];
    return html`<li
      class="member${deprecated(member.directives) ? ' is-deprecated' : ''}"
      id="${id}"
      data-coordinate="${id}"
      data-kind="${kind}"
    >
      <p class="signature"><code>${signature}</code></p>
      ${this.appliedDirectives(member.directives)} ${this.description(member.description)}
      ${
        args.length
          ? html`<p class="members-title">Arguments</p>
              <ul class="arguments">
                ${args.map((argument) =>
                  this.argument(anchors.argument(type, name, argument.name.value), argument),
                )}
              </ul>`
          : ''
      }
    </li>`;
  }

  private argument(id: string, argument: InputValueDefinitionNode): SafeHtml {
    return html`<li
      class="argument${deprecated(argument.directives) ? ' is-deprecated' : ''}"
      id="${id}"
      data-coordinate="${id}"
      data-kind="argument"
    >
      <p class="signature">
        <code
          ><a class="entry-name" href="#${id}">${argument.name.value}</a>:
          ${this.typeExpression(argument.type)}${defaultValue(argument)}</code
        >
      </p>
      ${this.appliedDirectives(argument.directives)} ${this.description(argument.description)}
    </li>`;
  }

  private directiveDefinition(definition: DirectiveDefinitionNode): SafeHtml {
    const name = definition.name.value;
    const id = anchors.directive(name);
    const args = definition.arguments ?? [];
    return html`<article class="entry" id="${id}" data-coordinate="${id}" data-kind="directive">
      <h4><a class="entry-name" href="#${id}">@${name}</a> <span class="kind">directive</span></h4>
      <p class="signature">
        <code
          >directive
          @${name}${args.length ? '(…)' : ''}${definition.repeatable ? ' repeatable' : ''} on
          ${definition.locations.map((location) => location.value).join(' | ')}</code
        >
      </p>
      ${this.description(definition.description)}
      ${
        args.length
          ? html`<p class="members-title">Arguments</p>
              <ul class="arguments">
                ${args.map((argument) =>
                  this.argument(anchors.directiveArgument(name, argument.name.value), argument),
                )}
              </ul>`
          : ''
      }
    </article>`;
  }

  private description(description: StringValueNode | undefined): SafeHtml | '' {
    if (!description?.value.trim()) return '';
    return html`<div class="description">
      ${renderDescription(description.value, this.linkCode)}
    </div>`;
  }

  /**
   * Directives applied in the SDL, whatever they are (`@cost(weight: "2")`, `@listSize(…)`):
   * each printed as written with its name linked to its definition. `@deprecated` and
   * `@specifiedBy` are also said in words.
   */
  private appliedDirectives(directives: readonly ConstDirectiveNode[] | undefined): SafeHtml | '' {
    if (!directives?.length) return '';
    const notes: SafeHtml[] = [];
    const deprecation = deprecated(directives);
    if (deprecation) {
      notes.push(
        html`<p class="deprecation">
          <strong>Deprecated</strong>: ${renderInline(deprecation, this.linkCode)}
        </p>`,
      );
    }
    const specifiedBy = argumentString(
      directives.find((directive) => directive.name.value === 'specifiedBy'),
      'url',
    );
    if (specifiedBy) {
      notes.push(
        html`<p class="specified-by">
          Specified by
          ${
            isSafeUrl(specifiedBy)
              ? html`<a href="${specifiedBy}" rel="noreferrer">${specifiedBy}</a>`
              : specifiedBy
          }
        </p>`,
      );
    }
    const printed = directives.map((directive) => {
      const name = directive.name.value;
      const text = print(directive).slice(name.length + 1);
      const target = anchors.directive(name);
      const label = this.catalog.anchors.has(target)
        ? html`<a href="#${target}">@${name}</a>`
        : html`@${name}`;
      return html`<code>${label}${text}</code>`;
    });
    return html`${notes}
      <p class="directives">${joinHtml(printed, ' ')}</p>`;
  }

  /** `[Type!]!` with the named type linked to its entry. */
  private typeExpression(type: TypeNode): SafeHtml {
    switch (type.kind) {
      case Kind.NON_NULL_TYPE:
        return html`${this.typeExpression(type.type)}!`;
      case Kind.LIST_TYPE:
        return html`[${this.typeExpression(type.type)}]`;
      case Kind.NAMED_TYPE:
        return this.typeLink(type.name.value);
    }
  }

  private typeLink(name: string): SafeHtml {
    const target = anchors.type(name);
    return this.catalog.anchors.has(target)
      ? html`<a class="type-link" href="#${target}">${name}</a>`
      : html`${name}`;
  }

  private namedTypes(types: readonly NamedTypeNode[]): SafeHtml {
    return joinHtml(
      types.map((type) => html`<code>${this.typeLink(type.name.value)}</code>`),
      ', ',
    );
  }
}

/** An entry's id: its coordinate, or for an extension one naming the module that adds it. */
export function entryId(module: ReferenceModule, definition: Definition): string {
  if (definition.kind === Kind.DIRECTIVE_DEFINITION)
    return anchors.directive(definition.name.value);
  if (!isExtension(definition)) return anchors.type(definition.name.value);
  const sameType = definitionsOf(module).filter(
    (other) => isExtension(other) && other.name.value === definition.name.value,
  );
  const index = sameType.indexOf(definition);
  return `extend-${module.name}-${definition.name.value}${index > 0 ? `-${index + 1}` : ''}`;
}

export function displayName(definition: Definition): string {
  return definition.kind === Kind.DIRECTIVE_DEFINITION
    ? `@${definition.name.value}`
    : definition.name.value;
}

function defaultValue(input: InputValueDefinitionNode): SafeHtml | '' {
  return input.defaultValue ? html` = ${print(input.defaultValue)}` : '';
}

/** The reason of an `@deprecated` among the directives, or null when there is none. */
function deprecated(directives: readonly ConstDirectiveNode[] | undefined): string | null {
  const directive = directives?.find((candidate) => candidate.name.value === 'deprecated');
  if (!directive) return null;
  // The specification's default reason.
  return argumentString(directive, 'reason') ?? 'No longer supported';
}

function argumentString(directive: ConstDirectiveNode | undefined, name: string): string | null {
  const value = directive?.arguments?.find((argument) => argument.name.value === name)?.value;
  return value?.kind === Kind.STRING ? value.value : null;
}
