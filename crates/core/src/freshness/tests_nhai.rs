//! Regression fixture: page 1 of nine scanned NHAI policy circulars as
//! tesseract (eng+hin) reads them, first 25 lines each. The Devanagari
//! letterhead pushed the number line past a 600-byte header, OCR garbles
//! the day's ordinal suffix (`137 February` is the 13th), and bodies cite
//! older circulars with clean dates that are not the issue date.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::header::page_header;
use super::{DescribeInput, DocMeta, FolderSettings, describe};

const P_2_1_80: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण कोर
(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार) कर !

National Highways Authority of India
(Ministry of Road Transport and Highways, Government of India)
सत्यमेव जयते जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ 6-5 & 6, Sector-10, Dwarka, New Delhi-110075
दूरभाष,/?1076 : 91-11-25074100 / 25074200

NHAI /Policy Guidelines /Dispute Resolution /2025

Policy Circular No.2.1.80/ 2025 dated 137 February, 2025
{Decision taken on E-Office File No. NHAI/CMD/CCIE/2018(Part1) (Comp. No. 121843)}

Sub: Standard Operating Procedure for Conciliation provided in the Contract /
Concession Agreement for the Disputes/ Claims Recommended/ Decided by
Dispute Resolution Board (DRB) - reg.

NHAI vide Policy Circular No. 2.1.23/2017 dated 02.06.2017 established a System for
Conciliation of Disputes through Conciliation Committee of Independent Experts (CCIEs).
Modified SOP for Conciliation was issued vide Policy Circular No. 2.1.48 dated 09.04.2021.
This covers all the disputes under the Project till date of referring the matter to CCIE at any
Stage (like not yet referred to AT, referred to AT, AT awarded and challenged in the Court).
Timelines to process the matters for referring to CCIEs was issued vide Policy Circular
No. 2.1.50, dated 26.05.2021.
"#;

const P_2_1_82: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार)

National Highways Authority of India
= (Ministry of Road Transport and Highways, Government of India)
सत्यमेव aaa जी-5 Ud 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ G-5 & 6, Sector-10, Dwarka, New Delhi-110075
SIF /Phone : 91-11-25074100 / 25074200

NHAI/Policy Guidelines/ Conciliation Committee/2025

Policy Circular No.2.1.82/2025 dated 26" February, 2025
{Decision taken on E-Office File No. NHAI/CMD/Conciliation/2021-Part (1)(Comp. No. 67745)}

Sub: 3 CGMs Committees for recommending the Offer of NHAI in Conciliation through
CCIEs - reg.

Four Nos of 3-CGM Committees were constituted vide NHAI Circular No. 2.1.56/2022
dated 18.11.2022, Policy Circular No. 2.1.58/2023 dated 15.05.2023, Policy Circular
No. 2.1.65/2023 dated 04.12.2023, Policy Circular No. 2.1.73 dated 03.05.2024, Policy
Circular No. 2.1.76/2024 dated 09.07.2024, Policy Circular No. 2.1.77/2024 dated 01.08.2024
and Policy Circular No. 2.1.79/2024 dated 20.09.2024.

2. Now, it has been decided that Sh. K. K. Arora, CGM (T) will replace Sh. R. P. Panda,
CGM (T) in 3-CGM Committee No-4 for all ongoing and future Cases of these Committees till"#;

const P_2_1_83: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण क्रो

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार) है
National Highways Authority of India es ri

2 (Ministry of Road Transport and Highways, Government of India)
सत्यमेव wad जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ 5-5 & 6, Sector-10, Dwarka, New Delhi-110075
दूरभाष /Phone : 91-11-25074100 / 25074200

NHAI/ Policy Guidelines/ Dispute Resolution & Legal Matters/ 2025

Policy Circular No. 2.1.83/2025 dated 0274 May, 2025
{Decision taken on E-Office File No. NHAI/DRB/2020 (Comp. No.3033)}

Sub: Amendment to the provisions of Contract/ Concession Agreements pertaining to
the constitution of Dispute Resolution Board (DRB) -reg.

Vide Policy Guidelines No. 2.1.37/2020 dated 16.03.2020 & Corrigendum No. 2.1.38/
2020 dated 13.05.2020, it was directed to adopt the procedure of Dispute Resolution Board
(DRB) in all ongoing PPP/HAM/EPC/Item Rate Projects.

2. Articles 26.1.3 and 24.1.3 of the Standard Agreements for EPC and PBMC respectively
contain provisions related to Dispute Resolution as under:

“Failing mediation by the Independent Engineer or without the intervention of the"#;

const P_2_1_85: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार)

National Highways Authority of India

* (Ministry of Road Transport and Highways, Government of India)
पत्वमेव जयते जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ 5-5 & 6, Sector-10, Dwarka, New Delhi-110075
<9 /Phone : 91-11-25074100 / 25074200

NHAI/ Policy Guidelines/ Dispute Resolution/ 2025

Policy Circular No. 2.1.85/ 2025 dated-13" June, 2025— -
{Decision taken on E-Office File No. NHAI/CMD/CCIEExtn./2020-21 (Comp. No. 5472)}

Sub: Extension of time period of Panel of Independent Experts of Conciliation
Committees of Independent Experts (CCIEs 1 & 2) - reg.

NHAI vide Policy Circular No. 2.1.23/2017 dated 02.06.2017 established a
Conciliation and Settlement Mechanism for the early Resolution and Settlement of
Claims arising out of the Contractual Disputes under the Contract Agreements with the
Contractors/ Concessionaires/ Consultants in NHAI. The two Conciliation and Settlement
Committees were constituted and published vide Para 4.3 of Policy Circular No.
2.1.23/2017 dated 02.06.2017. As per Annexure-1 of the Policy Circular, the panel of
Independent Experts approved under these Guidelines was valid upto 01.06.2020."#;

const P_2_1_86: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार)

National Highways Authority of India
(Ministry of Road Transport and Highways, Government of India)
जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ 5-5 & 6, Sector-10, Dwarka, New Delhi-110075
GeV /Phone : 91-11-25074100 / 25074200

ay
=)

12.2
NHAI/Policy Guidelines/Conciliation Committee/2025

Policy Circular No.2.1.86/2025 dated 10° July, 2025

{Decision taken on E-Office File No. NHAI/CMD/Conciliation/2021-Part (1)(Comp. No. 67745)}

सत्यमेव जयते

Sub: 3-CGMs Committees for recommending the Offer of NHAI in Conciliation through
CCIEs - reg.

Four Nos of 3-CGM Committees were constituted vide NHAI Policy Circular No. 2.1.56"#;

const P_2_1_87: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार)

National Highways Authority of India
(Ministry of Road Transport and Highways, Government of India)
जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ 5-5 & 6, 5600-10, Dwarka, New Delhi-110075
दूरभाष/?2॥1016 : 91-11-25074100 / 25074200

NHAI/ Policy Guidelines/ Conciliation Committee/ 2025

Policy Circular No. 2.1.87/2025 dated 2274 September, 2025
{Decision taken on E-Office File No. NHAI/CMD/CCIEExtn. /2020-21-Part(1) (Comp. No. 294411)}

Sub: Reconstitution of Conciliation Committee of Independent Experts-3 (CCIE-3)-reg.

NHAI vide Policy Circular No. 2.1.23/2017 dated 02.06.2017, established a Conciliation
and Settlement Mechanism for Contractual Disputes arising under Agreements with
Contractors/ Concessionaires/ Consultants. Subsequently, an amendment to the said Policy
Circular along with Standard Operating Procedure (SOP)/ Methodology for Conciliation was
issued vide Policy Circular No. 2.1.23(1)/2017 dated 19.06.2017.

Thereafter, a modified SOP/ Methodology for Conciliation was issued vide Policy Circular
No. 2.1.48 dated 09.04.2021, followed by timelines for processing matters for reference to
CCIEs vide Policy Circular No. 2.1.50 dated 26.05.2021. Further, a separate SOP for"#;

const P_2_2_14: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार)

National Highways Authority of India
(Ministry of Road Transport and Highways, Government of India)
जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ G-5 & 6, Sector-10, Dwarka, New Delhi-110075
दूरभाष,/21016 : 91-11-25074100 / 25074200

सत्यमेव wad

NHAI/Policy Guidelines/Dispute Resolution Board/2025
Policy Circular No.2.2.14/ 2025 dated 28% February, 2025
{Decision taken on E-Office File No. NHAI/DRB/2020 (Comp. No. 3033)}

Sub: Age Criteria for Empanelment & De-empanelment of Dispute Resolution Board
(DRB) Members - reg.

With reference to the above, Standard Operating Procedure (SOP) for Empanelment/
De-empanelment of Members of Dispute Resolution Boards (DRBs) issued vide Policy

Circular No.2.2.13/2024 dated 2870 Nov, 2024 is hereby amended as under:

Maximum 70 years (At the time of
Empanelment)"#;

const P_2_2_15: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार) ay

National Highways Authority of India se
(Ministry of Road Transport and Highways, Government of India)

सत्यमेव waa 5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 » 6-5 & 6, Sector-10, Dwarka, New Delhi-110075
eg /Phone : 91-11-25074100 / 25074200

NHAI/Policy Guidelines/Dispute Resolution Board/2025

Policy Circular No.2.2.15/ 2025 dated 015 March, 2025
{Decision taken on E-Office File No. NHAI/DRB/2020-Part(1) (Comp. No. 7955)}

Sub: Site Visits for DRB Members - reg.

This is with reference to the Policy Circular No.2.2.10/2023 dated 300 October 2023 whereby
DRB Members are required to mandatorily make 04 Site Visits in 12 Months Period.

2. Keeping in view of the feedback received during the interaction with DRB Members, ROs/PDs,
Contractors/Consultants held on 16.11.2024 and in consultation with NHBF, the following changes
have been made:

2.1 DRB Members are now required to make 2 Physical Site Visits and 2 Video Conference (VC) in"#;

const P_2_5_17: &str = r#"भारतीय राष्ट्रीय राजमार्ग प्राधिकरण

(सड़क परिवहन और राजमार्ग मंत्रालय, भारत सरकार)

National Highways Authority of India

ay (Ministry of Road Transport and Highways, Government of India)

सत्यमेव wad जी-5 एवं 6, सेक्टर-10, द्वारका, नई दिल्‍ली - 110 075 ७ G-5 & 6, Sector-10, Dwarka, New Delhi-110075
ZEW /Phone : 91-11-25074100 / 25074200

NHAI/Policy Guidelines/Dispute Resolution/2025

Policy Circular No.2.5.17/2025 dated 137 March, 2025
{Decision taken on E-Office File No. CDMDIV/4/2024-CMD Division (Comp. No. 265593)}

Sub: Clarification on Policy Guidelines No. 2.5.11/2019 dated 17.05.2019 regarding
payment of Royalty after Hon’ble Supreme Court Judgement dated 25.07.2024
passed in Civil Appeal Nos. 4056-4064 of 1999, Mineral Area Development
Authority & Anr. (Appellants) Vs. M/s Steel Authority of India & Anr.
(Respondents) -reg.

NHAI vide Policy Circular No. 2.5.11/2019 dated 17.05.2019 issued ‘SOP/ Guidelines on
Reimbursement for increase/ recovery for decrease in Royalty Rates of minor minerals under
Change in Law in EPC/ DBFOT Projects’. It was inter-alia decided vide ibid Policy Circular at"#;

/// (number, page, issue day, issue month); every one issued in 2025.
const CIRCULARS: [(&str, &str, u32, u32); 9] = [
    ("2.1.80", P_2_1_80, 13, 2),
    ("2.1.82", P_2_1_82, 26, 2),
    ("2.1.83", P_2_1_83, 2, 5),
    ("2.1.85", P_2_1_85, 13, 6),
    ("2.1.86", P_2_1_86, 10, 7),
    ("2.1.87", P_2_1_87, 22, 9),
    ("2.2.14", P_2_2_14, 28, 2),
    ("2.2.15", P_2_2_15, 1, 3),
    ("2.5.17", P_2_5_17, 13, 3),
];

/// `describe` as `describe_file` calls it for a PDF with no title.
fn describe_scan(page: &str) -> DocMeta {
    let header = format!("\n{}", page_header(page));
    let (empty, folder) = (BTreeMap::new(), FolderSettings::default());
    describe(&DescribeInput {
        rel_path: "nhai/scan.pdf",
        file_stem: "scan",
        title: None,
        front_matter: &empty,
        sidecar: &empty,
        header: &header,
        opening: page,
        properties: &almirah_extract::Properties::default(),
        file_date: None,
        folder: &folder,
    })
}

#[test]
fn nhai_scans_read_their_own_issue_date() {
    for (number, page, day, month) in CIRCULARS {
        let issued = describe_scan(page).issued.map(|f| f.value);
        assert_eq!(issued, NaiveDate::from_ymd_opt(2025, month, day), "{number}");
    }
}

#[test]
fn nhai_scans_are_known_by_their_dotted_number() {
    for (number, page, _, _) in CIRCULARS {
        let refs = describe_scan(page).references;
        assert_eq!(refs, [format!("circular:{number}"), "name:scan".to_string()], "{number}");
    }
}

#[test]
fn only_2_2_14_amends_and_none_supersedes() {
    for (number, page, _, _) in CIRCULARS {
        let meta = describe_scan(page);
        let amends = meta.amends.map(|f| f.value);
        let want = (number == "2.2.14").then(|| vec!["circular:2.2.13".to_string()]);
        assert_eq!(amends, want, "{number}");
        assert_eq!(meta.supersedes, None, "{number}");
    }
}

#[test]
fn a_validity_the_body_cites_does_not_expire_the_circular() {
    // 2.1.85: "… approved under these Guidelines was valid upto 01.06.2020."
    for (number, page, _, _) in CIRCULARS {
        assert_eq!(describe_scan(page).effective_until, None, "{number}");
    }
}
