'use strict';
// Demo content for a fresh CMS: topics written for Medicare provider office staff in J5 and J8. Together the
// bodies exercise every rendering rule the site must follow (docs/requirements/public-site.md#content-rendering): GFM tables, footnotes, strikethrough,
// task lists, autolinks, in-page # links, / links, links to the portal's own domain, external links, an image
// with an absolute URL, and a javascript: link the site must neutralise. `{{IMAGE}}` and `{{PORTAL}}` are
// replaced at seed time with the uploaded image's absolute URL and the portal's address.

const { JURISDICTIONS: ALL } = require('../portal/jurisdictions');

const topics = [
  {
    slug: 'rendering-examples',
    title: 'Reading this site: links, tables and notes',
    summary: 'How guidance pages are laid out, with an example of every kind of link, table and note you will meet.',
    jurisdictions: ALL,
    order: 90,
    body: `Guidance pages on this site share a few conventions. This page shows each one so you know what to expect.

## Contents

- [Tables](#tables)
- [Checklists](#checklists)
- [Links](#links)
- [Diagrams](#diagrams)

## Tables

| Claim type | Format | Timely filing limit |
| --- | --- | --- |
| Part A institutional | 837I | 12 months from the date of service |
| Part B professional | 837P | 12 months from the date of service |
| Paper (exception only) | CMS-1500 / UB-04 | 12 months from the date of service |

## Checklists

- [x] Confirm the patient's Medicare Beneficiary Identifier (MBI)
- [x] Check eligibility before the visit
- [ ] Attach documentation when the policy requires it

Rules that no longer apply are struck through: ~~submit a paper claim for every secondary payer~~.

## Links

- A page on this site: [Privacy](/topics/privacy)
- The same site by its full address: [Contact us]({{PORTAL}}/topics/contact)
- Another site, which opens in a new tab: [CMS Medicare Learning Network](https://www.cms.gov/training-education/medicare-learning-network)
- Addresses typed in the text become links too: www.cms.gov and https://www.cms.gov/medicare/coding-billing
- Email: [provider.help@example.org](mailto:provider.help@example.org)
- A link that tries to run code is shown as plain text: [click me](javascript:alert(1))
- Back to the [top of this page](#contents)

## Diagrams

![How an electronic claim moves from your office to payment]({{IMAGE}})

Claims that fail front-end edits are returned to your clearinghouse, not to your office.[^edits]

[^edits]: Front-end edits check the format and the required data elements before the claim enters processing.
`,
  },
  {
    slug: 'submitting-claims-electronically',
    title: 'Submitting Part B claims electronically',
    summary: 'What you need before you send 837P claims, how to read acknowledgements, and how to fix rejected claims.',
    jurisdictions: ['J5B', 'J8B'],
    order: 10,
    body: `Medicare requires most providers to submit claims electronically under the Administrative Simplification Compliance Act (ASCA).[^asca]

## Before you start

- [x] Enroll in EDI and get a submitter ID
- [x] Choose a network service vendor or clearinghouse
- [ ] Test your software with the EDI help desk

## Reading acknowledgements

| Report | Tells you |
| --- | --- |
| 999 | Whether the file was syntactically valid |
| 277CA | Which claims were accepted into processing |
| 835 | How each claim was paid or denied |

See [how an electronic claim moves](/topics/rendering-examples#diagrams) for the whole path, and the
[CMS Medicare Claims Processing Manual](https://www.cms.gov/regulations-and-guidance/guidance/manuals/internet-only-manuals-ioms-items/cms018912).

[^asca]: Small providers with fewer than 10 full-time employees may qualify for an exception.
`,
  },
  {
    slug: 'ambulance-prior-authorization',
    title: 'Prior authorization for repetitive, scheduled non-emergent ambulance transport',
    summary: 'When prior authorization applies to RSNAT, what to send, and how long a decision takes.',
    jurisdictions: ['J5B', 'J8B'],
    order: 20,
    body: `Repetitive, scheduled non-emergent ambulance transport (RSNAT) is three or more round trips in 10 days, or at least one round trip a week for three weeks.

## What to send

1. The physician certification statement
2. Medical records that support medical necessity
3. The number of trips requested (up to 40 round trips in 60 days)

Decisions are made within **10 business days**; expedited reviews within 2 business days.

~~Fax-only submissions~~ are no longer the only option: submit through the portal once you have an account.
Questions? [Contact us](/topics/contact).
`,
  },
  {
    slug: 'medicare-secondary-payer-basics',
    title: 'Medicare Secondary Payer basics',
    summary: 'When another insurer pays first, and how to report it on the claim.',
    jurisdictions: ALL,
    order: 30,
    body: `Medicare is the secondary payer when another plan must pay first, for example an employer group health plan with 20 or more employees.

| Situation | Who pays first |
| --- | --- |
| Working aged, employer with 20+ employees | Group health plan |
| End-stage renal disease, first 30 months | Group health plan |
| Accident or liability claim | Liability insurer |
| No other coverage | Medicare |

Ask every patient about other coverage at each admission or new episode of care. Read the
[MSP manual](https://www.cms.gov/regulations-and-guidance/guidance/manuals/downloads/msp105c03.pdf) for details.
`,
  },
  {
    slug: 'fee-schedule-lookups',
    title: 'Looking up Part B fees',
    summary: 'Where to find the Medicare Physician Fee Schedule amounts for your locality.',
    jurisdictions: ['J5B', 'J8B'],
    order: 40,
    body: `Fee schedule amounts differ by locality. Use the [Physician Fee Schedule look-up tool](https://www.cms.gov/medicare/physician-fee-schedule/search) and choose your MAC locality.

| State | Localities |
| --- | --- |
| Iowa | 1 (statewide) |
| Kansas | 1 (statewide) |
| Missouri | 3 |
| Nebraska | 1 (statewide) |
| Indiana | 1 (statewide) |
| Michigan | 2 |

CPT codes and descriptions are copyright of the American Medical Association; by using this site you accept the AMA license.
`,
  },
  {
    slug: 'enrolling-through-pecos',
    title: 'Enrolling and revalidating through PECOS',
    summary: 'Keep your Medicare enrollment current so that claims are not held.',
    jurisdictions: ALL,
    order: 50,
    body: `Use the Provider Enrollment, Chain, and Ownership System (PECOS) at https://pecos.cms.hhs.gov to enroll, revalidate and report changes.

- [x] Report a change of address within 30 days
- [x] Report a change of ownership within 30 days
- [ ] Revalidate every five years (three for DMEPOS suppliers)

Claims for a provider whose enrollment lapsed are returned. See [Direct Data Entry access](/topics/dde-access) if you also need FISS access.
`,
  },
  {
    slug: 'dde-access',
    title: 'Direct Data Entry (DDE) access for Part A',
    summary: 'How Part A providers request FISS DDE access, and what the administrator must approve.',
    jurisdictions: ['J5A', 'J8A'],
    order: 60,
    body: `Direct Data Entry (DDE) gives Part A providers online access to the Fiscal Intermediary Standard System (FISS) to check eligibility, enter and correct claims.

## Who can request access

Each person needs their own portal account linked to the provider location. The location's administrator approves the request.

## Steps

1. Log in to the portal
2. Open **DDE access** and review the pre-filled EDI enrollment details
3. Submit the request; you receive a reference number by email

Your network service vendor must be approved for DDE connectivity.
`,
  },
  {
    slug: 'appeals-redeterminations',
    title: 'Appeals: asking for a redetermination',
    summary: 'The first level of appeal, the 120-day limit, and what to include.',
    jurisdictions: ALL,
    order: 70,
    body: `A redetermination is the first level of appeal. File it within **120 days** of receiving the initial determination.

| Level | Who decides | Time limit to file |
| --- | --- | --- |
| 1. Redetermination | The MAC | 120 days |
| 2. Reconsideration | Qualified Independent Contractor | 180 days |
| 3. Hearing | Administrative Law Judge | 60 days |

Include the claim number, the items in dispute and why you disagree. Clerical errors can often be reopened instead of appealed.[^reopen]

[^reopen]: Reopenings correct minor errors without using your appeal rights.
`,
  },
  {
    slug: 'contact',
    title: 'Contact us',
    summary: 'Provider contact center hours, telephone numbers and written correspondence addresses.',
    jurisdictions: ALL,
    order: 100,
    body: `## Provider contact center

| Jurisdiction | Telephone | Hours |
| --- | --- | --- |
| J5 Part A | 866-555-0100 | Monday–Friday, 7:00 a.m.–4:00 p.m. (Central) |
| J5 Part B | 866-555-0101 | Monday–Friday, 7:00 a.m.–4:00 p.m. (Central) |
| J8 Part A | 866-555-0102 | Monday–Friday, 8:00 a.m.–5:00 p.m. (Eastern) |
| J8 Part B | 866-555-0103 | Monday–Friday, 8:00 a.m.–5:00 p.m. (Eastern) |

Email questions that contain no patient information to [provider.help@example.org](mailto:provider.help@example.org). Never email protected health information.

Read our [privacy notice](/topics/privacy) and [accessibility statement](/topics/accessibility).
`,
  },
  {
    slug: 'privacy',
    title: 'Privacy',
    summary: 'What this site collects, why, and how long it keeps it.',
    jurisdictions: ALL,
    order: 110,
    body: `This site collects only what it needs to run the provider portal:

- Account details you give us (name, work email, telephone) to manage your access
- Security events (sign-ins, password changes) kept for audit as federal rules require
- Two cookies: \`region\` remembers your jurisdiction and \`amaApproved\` remembers that you accepted the AMA license

We do not sell information. See the [HHS privacy policy](https://www.hhs.gov/privacy/index.html) for more.
`,
  },
  {
    slug: 'accessibility',
    title: 'Accessibility',
    summary: 'Our commitment to Section 508 and WCAG 2.2 AA, and how to report a problem.',
    jurisdictions: ALL,
    order: 120,
    body: `We build this site to meet Section 508 and the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA.

If something does not work with your assistive technology, tell us at [accessibility@example.org](mailto:accessibility@example.org) or through [Contact us](/topics/contact). Include the page address and what happened.
`,
  },
];

const draftTopic = {
  slug: 'draft-topic-example',
  title: 'Upcoming change to telehealth place-of-service codes (draft)',
  summary: 'A draft that editors are still reviewing: never shown on the site until it is published.',
  jurisdictions: ALL,
  order: 200,
  body: 'This draft is not published yet.',
};

const homePage = {
  heroTitle: 'Medicare guidance for your region',
  heroText:
    "News, billing guidance and portal accounts for the staff of doctors' offices and hospitals in **J5** (Iowa, Kansas, Missouri, Nebraska) and **J8** (Indiana, Michigan), Part A and Part B.",
  featured: ['submitting-claims-electronically', 'appeals-redeterminations', 'enrolling-through-pecos'],
  notices: [
    {
      title: 'Portal maintenance',
      text: 'The portal may be unavailable on Sunday from 1:00 a.m. to 5:00 a.m. Central time.',
      severity: 'info',
    },
  ],
};

const licenseText = `## American Medical Association (AMA) license for CPT®

End User Point and Click Agreement: CPT codes, descriptions and other data only are copyright 2026 American Medical Association. All rights reserved. CPT is a registered trademark of the American Medical Association (AMA).

You, your employees and agents are authorized to use CPT only as contained in the following authorized materials of this site: local coverage determinations, fee schedules, articles and other guidance, internally within your organization within the United States for the sole use by yourself, employees and agents. Use is limited to use in Medicare, Medicaid or other programs administered by the Centers for Medicare & Medicaid Services (CMS).

You agree to take all necessary steps to ensure that your employees and agents abide by the terms of this agreement.

Any use not authorized herein is prohibited, including by way of illustration and not by way of limitation, making copies of CPT for resale and/or license, transferring copies of CPT to any party not bound by this agreement, creating any modified or derivative work of CPT, or making any commercial use of CPT. License to use CPT for any use not authorized here in must be obtained through the AMA, CPT Intellectual Property Services, AMA Plaza, 330 N. Wabash Ave., Suite 39300, Chicago, IL 60611-5885.

### U.S. Government rights

This product includes CPT which is commercial technical data and/or computer data bases and/or commercial computer software and/or commercial computer software documentation, as applicable, which were developed exclusively at private expense by the American Medical Association. U.S. Government rights to use, modify, reproduce, release, perform, display, or disclose these technical data and/or computer data bases and/or computer software and/or computer software documentation are subject to the limited rights restrictions of DFARS 252.227-7015(b)(2) (November 1995) and/or subject to the restrictions of DFARS 227.7202-1(a) (June 1995) and DFARS 227.7202-3(a) (June 1995), as applicable for U.S. Department of Defense procurements and the limited rights restrictions of FAR 52.227-14 (June 1987) and/or subject to the restricted rights provisions of FAR 52.227-14 (June 1987) and FAR 52.227-19 (June 1987), as applicable, and any applicable agency distribution of the CPT product.

### Disclaimer of warranties and liabilities

CPT is provided "as is" without warranty of any kind, either expressed or implied, including but not limited to, the implied warranties of merchantability and fitness for a particular purpose. The AMA warrants that due to the nature of CPT, it does not manually review and edit each code. The AMA does not directly or indirectly practice medicine or dispense medical services. Fee schedules, relative value units, conversion factors and/or related components are not assigned by the AMA, are not part of CPT, and the AMA is not recommending their use. The AMA does not assume any liability for data contained or not contained herein.

### Termination

This license will terminate upon notice to you if you violate the terms of this license. The AMA is a third-party beneficiary to this license.

### Point and click license

By clicking **Accept**, you agree to the terms of this license. If you do not agree, click **Do Not Accept** and you will be returned to the home page.
`;

// Each question has a stable key: the portal stores the key with a user's answer (a documentId is not known before
// the CMS is seeded, and the demo accounts' answers are created by the portal).
const securityQuestions = [
  { key: 'childhood-street', question: 'What was the name of the street you grew up on?' },
  { key: 'first-car', question: 'What was the make and model of your first car?' },
  { key: 'first-school', question: 'What is the name of the first school you attended?' },
  { key: 'parents-met-city', question: 'In what city did your parents meet?' },
  { key: 'first-employer', question: 'What was the name of your first employer?' },
  { key: 'childhood-nickname', question: 'What was your childhood nickname?' },
  { key: 'oldest-sibling-middle-name', question: 'What is the middle name of your oldest sibling?' },
];

// The standard US-government system-use notice (CMS ARS AC-8), shown above the login form.
const systemUseNoticeText = `**This warning banner provides privacy and security notices consistent with applicable federal laws, directives, and other federal guidance for accessing this Government system.**

- This system is provided for Government-authorized use only.
- Unauthorized or improper use of this system is prohibited and may result in disciplinary action and/or civil and criminal penalties.
- Personal use of social media and networking sites on this system is limited as to not interfere with official work duties and is subject to monitoring.
- By using this system, you understand and consent to the following:
  - The Government may monitor, record, and audit your system usage, including usage of personal devices and email systems for official duties or to conduct HHS business. Therefore, you have no reasonable expectation of privacy regarding any communication or data transiting or stored on this system. At any time, and for any lawful Government purpose, the Government may monitor, intercept, and search and seize any communication or data transiting or stored on this system.
  - Any communication or data transiting or stored on this system may be disclosed or used for any lawful Government purpose.`;

module.exports = { topics, draftTopic, homePage, licenseText, securityQuestions, systemUseNoticeText };
