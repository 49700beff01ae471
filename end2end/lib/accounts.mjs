// Demo accounts of the running portal: scripts/e2e.sh saves what `seed-demo` printed and
// passes the file in AP_E2E_ACCOUNTS (and, for the second portal in Brevo mode, in
// AP_E2E_ACCOUNTS_BREVO: each portal has its own database and so its own passwords).
import { readFileSync } from 'node:fs';

/** The seed output of the Brevo-mode portal (AP_E2E_ACCOUNTS_BREVO, required when used). */
export function brevoAccountsFile() {
  const file = process.env.AP_E2E_ACCOUNTS_BREVO;
  if (!file) {
    throw new Error('AP_E2E_ACCOUNTS_BREVO is not set: run the browser tests through scripts/e2e.sh');
  }
  return file;
}

/** The password seed-demo printed for `login`; `accountsFile` defaults to AP_E2E_ACCOUNTS. */
export function demoPassword(login, accountsFile = process.env.AP_E2E_ACCOUNTS) {
  if (!accountsFile) throw new Error('AP_E2E_ACCOUNTS is not set: run the browser tests through scripts/e2e.sh');
  const line = readFileSync(accountsFile, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`Konto angelegt: Login ${login}, Passwort `));
  if (!line) throw new Error(`seed-demo printed no password for ${login} (in ${accountsFile})`);
  return line.split('Passwort ')[1].split(' ')[0];
}

/**
 * Signs in through the login form, as a user would, on the page's portal (its context's
 * baseURL). For the Brevo-mode portal pass `{ accountsFile: brevoAccountsFile() }`.
 */
export async function logIn(page, login, { accountsFile } = {}) {
  await page.goto('/login');
  await page.waitForURL('**/api/auth/login');
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Passwort').fill(demoPassword(login, accountsFile));
  await page.getByRole('button', { name: 'Anmelden' }).click();
}
