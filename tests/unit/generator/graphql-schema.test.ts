import { buildSchema, parse, validate, type GraphQLObjectType } from 'graphql';
import { describe, expect, test } from 'vitest';
import { entityOperationNames, entityTypeDefs } from '../../../server/generated/graphql.ts';
import { graphqlDocuments } from '../../../src/generated/graphql-operations.ts';
import { entities } from '../../../server/generated/entities.ts';

const schema = buildSchema(entityTypeDefs);

describe('generated GraphQL schema', () => {
  test('builds, with a type, an input and a page type per generic entity', () => {
    for (const model of Object.values(entities).filter((m) => m.api.endpoints === 'generic')) {
      expect(schema.getType(model.typeName), model.typeName).toBeDefined();
      if (model.flags.creatable || model.flags.editable) expect(schema.getType(model.inputTypeName), model.inputTypeName).toBeDefined();
      expect(schema.getType(`${model.typeName}Page`)).toBeDefined();
    }
    expect(schema.getType('Setting')).toBeUndefined();
  });

  test('secret fields are not readable, and flags decide the mutations', () => {
    const user = schema.getType('User') as GraphQLObjectType;
    expect(Object.keys(user.getFields())).not.toContain('password');
    const apiKey = schema.getType('UserApiKey') as GraphQLObjectType;
    expect(Object.keys(apiKey.getFields())).not.toContain('secret');
    const mutations = Object.keys(schema.getMutationType()!.getFields());
    expect(mutations).toContain('botCreate');
    expect(mutations).toContain('conversationDelete');
    expect(mutations).not.toContain('conversationCreate');
    expect(mutations).not.toContain('conversationUpdate');
  });

  test('every operation the server binds exists in the schema', () => {
    const queries = schema.getQueryType()!.getFields();
    const mutations = schema.getMutationType()!.getFields();
    for (const [entity, names] of Object.entries(entityOperationNames)) {
      const model = entities[entity];
      for (const [action, name] of Object.entries(names)) {
        const mutation = ['create', 'update', 'delete'].includes(action);
        const allowed = action === 'export' ? model.flags.exportable
          : action === 'create' ? model.flags.creatable
            : action === 'update' ? model.flags.editable
              : action === 'delete' ? model.flags.deletable : true;
        expect(Boolean((mutation ? mutations : queries)[name]), `${entity}.${action} (${name})`).toBe(allowed);
      }
    }
  });

  test('every client document is valid against the schema', () => {
    let count = 0;
    for (const [entity, documents] of Object.entries(graphqlDocuments)) {
      for (const [action, document] of Object.entries(documents ?? {})) {
        const errors = validate(schema, parse(document!)).map((e) => e.message);
        expect(errors, `${entity}.${action}`).toEqual([]);
        count++;
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  test('the record selection reads populated refs and nested objects', () => {
    const findById = graphqlDocuments.bottrace!.findById!;
    expect(findById).toContain('status { _id name }');
    expect(findById).toMatch(/knowledgeBase \{\s+source\s+hash\s+content\s+\}/);
    expect(graphqlDocuments.user!.findById).toContain('role { _id name permissions }');
  });
});
