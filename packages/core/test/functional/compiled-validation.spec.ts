import 'reflect-metadata';
import {
  getMetadataStorage,
  IsEmail,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ArrayOf, Command, PersonaToolExecutor, silentLogger, ToolParam, ToolRegistry } from '@toolwright/core';

@ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage() {
    return '$property must be even';
  }
}

class Contact {
  @ToolParam({ description: 'Email' }) @IsEmail() email!: string;
  @ToolParam({ required: false }) optional?: string;
}

class InviteParams {
  @ArrayOf(() => Contact, { minItems: 1 }) contacts!: Contact[];
  @ToolParam({ type: 'int' }) @Validate(IsEven) seats!: number;
}

@Command({ name: 'invite', description: 'Invite contacts', params: InviteParams })
class InviteCommand {
  execute(params: InviteParams) {
    return {
      first: params.contacts[0]!.email,
      seats: params.seats,
      isDto: params instanceof InviteParams,
      contactIsDto: params.contacts[0] instanceof Contact,
    };
  }
}

class ConditionalParams {
  @ToolParam({ enum: ['email', 'phone'] }) channel!: string;
  @ValidateIf((object: ConditionalParams) => object.channel === 'email')
  @ToolParam({ required: false })
  @IsEmail()
  address?: string;
}

@Command({ name: 'notify', description: 'Notify', params: ConditionalParams })
class NotifyCommand {
  execute(params: ConditionalParams) {
    return params;
  }
}

function executors(...commands: Array<new () => unknown>) {
  const registry = ToolRegistry.from(commands, { logger: silentLogger });
  return {
    compiled: new PersonaToolExecutor(registry, { logger: silentLogger }),
    reference: new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' }),
  };
}

describe('compiled validation: class-validator rules the IR cannot say', () => {
  it("runs a developer's @IsEmail and custom constraints for that class only, agreeing with the reference path", async () => {
    const { compiled, reference } = executors(InviteCommand);
    const good = { contacts: [{ email: 'ana@example.com' }], seats: '4' };
    for (const executor of [compiled, reference]) {
      expect(await executor.execute({ id: 'g', name: 'invite', arguments: JSON.stringify(good) })).toMatchObject({
        ok: true,
        value: { first: 'ana@example.com', seats: 4, isDto: true, contactIsDto: true },
      });
    }
    const bad = { contacts: [{ email: 'not-an-email' }], seats: 3 };
    const [fast, slow] = await Promise.all(
      [compiled, reference].map((executor) =>
        executor.execute({ id: 'b', name: 'invite', arguments: JSON.stringify(bad) }),
      ),
    );
    expect(fast!.ok || slow!.ok).toBe(false);
    const issues = (result: typeof fast) =>
      result!.ok ? [] : result!.error.issues.map((issue) => [issue.path, issue.rule, issue.message]);
    // `@IsEmail()` is the IR's `format: email` (one definition): the e-mail is refused with the IR's constraints,
    // before the developer rules run.
    expect(issues(fast)).toEqual([
      [
        'contacts[0].email',
        'format',
        '"contacts[0].email" must be a string in email format, but received "not-an-email". Example: "name@example.com".',
      ],
      ['seats', 'isEven', '"seats" is invalid: seats must be even.'],
    ]);
    expect(issues(slow).sort()).toEqual(issues(fast).sort());
  });

  it("reports a developer rule's failure together with the normalizer's (regression: it was skipped when other issues existed)", async () => {
    const { compiled, reference } = executors(InviteCommand);
    const args = JSON.stringify({ contacts: [{ email: 'ana@example.com' }, { email: 'nope' }], seats: 'many' });
    for (const executor of [compiled, reference]) {
      const result = await executor.execute({ id: 'm', name: 'invite', arguments: args });
      expect(!result.ok && result.error.issues.map((issue) => issue.path).sort()).toEqual([
        'contacts[1].email',
        'seats',
      ]);
    }
  });

  it("never calls class-validator's lookup that scans every registered class", async () => {
    const { compiled } = executors(InviteCommand);
    const storage = getMetadataStorage();
    const scan = jest.spyOn(storage, 'getTargetValidationMetadatas');
    try {
      await compiled.execute({ id: '1', name: 'invite', arguments: '{"contacts": [{"email": "a@b.co"}], "seats": 2}' });
      await compiled.execute({ id: '2', name: 'invite', arguments: '{"contacts": [{"email": "x"}], "seats": 1}' });
      expect(scan).not.toHaveBeenCalled();
    } finally {
      scan.mockRestore();
    }
  });

  it('hands a class command the parsed arguments as its DTO instances, and a function tool its plain object (issue 26)', async () => {
    const received: unknown[] = [];
    const classRegistry = ToolRegistry.from([InviteCommand], { logger: silentLogger });
    const functionRegistry = new ToolRegistry({ logger: silentLogger });
    // The same definition (its DTO carries @IsEmail and @Validate) with a function handler: its rules' instance is
    // built beside the parameters, which stay a plain object.
    functionRegistry.registerDefinition(classRegistry.get('invite')!, {
      kind: 'function',
      handler: (params) => {
        received.push(params);
        return 'ok';
      },
    });
    const args = '{"seats":4,"contacts":[{"optional":"o","email":"ana@example.com"},{"email":"bo@example.com"}]}';
    const asClass = await new PersonaToolExecutor(classRegistry, { logger: silentLogger }).prepare({
      id: 'c',
      name: 'invite',
      arguments: args,
    });
    expect(asClass.ok).toBe(true);
    const params = asClass.ok ? (asClass.params as unknown as InviteParams) : undefined;
    expect(params).toBeInstanceOf(InviteParams);
    expect(params!.contacts[0]).toBeInstanceOf(Contact);
    expect(params!.contacts[1]).toBeInstanceOf(Contact);
    expect(Object.keys(params!)).toEqual(['seats', 'contacts']);
    expect(Object.keys(params!.contacts[0]!)).toEqual(['optional', 'email']);
    expect(JSON.stringify(params)).toBe(args);
    const functionExecutor = new PersonaToolExecutor(functionRegistry, { logger: silentLogger });
    expect(await functionExecutor.execute({ id: 'f', name: 'invite', arguments: args })).toMatchObject({ ok: true });
    expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    expect(Object.getPrototypeOf((received[0] as InviteParams).contacts[0])).toBe(Object.prototype);
    expect(JSON.stringify(received[0])).toBe(args);
    const refused = await functionExecutor.execute({ id: 'r', name: 'invite', arguments: args.replace('bo@', 'bo') });
    expect(!refused.ok && refused.error.issues.map((issue) => issue.path)).toEqual(['contacts[1].email']);
  });

  it('validates a class that uses @ValidateIf on the reference path, so the condition is honoured', async () => {
    const { compiled, reference } = executors(NotifyCommand);
    for (const executor of [compiled, reference]) {
      expect(
        await executor.execute({
          id: 'p',
          name: 'notify',
          arguments: '{"channel": "phone", "address": "not an email"}',
        }),
      ).toMatchObject({ ok: true });
      expect(
        await executor.execute({
          id: 'e',
          name: 'notify',
          arguments: '{"channel": "email", "address": "not an email"}',
        }),
      ).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENTS', issues: [{ path: 'address', rule: 'format' }] },
      });
    }
  });
});
