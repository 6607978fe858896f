//! Getting a page as an image: taken out as stored when the page is exactly
//! one JPEG or lossless image (`pdfimages -all`, milliseconds), rendered
//! with `pdftoppm` otherwise (masks, several images, vector text, turned pages).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::OcrOptions;
use super::page_keys::PagePlan;
use super::programs::{Failure, run};

/// Lowest stored resolution, in dots per inch, at which a page image is
/// recognised as it is; below it the page is rendered at [`OcrOptions::dpi`].
const MIN_STORED_DPI: u32 = 150;

/// What `pdfimages -list` says of each page: the images on it.
#[derive(Debug, Default)]
pub(crate) struct Survey {
    pages: BTreeMap<u32, Vec<ImageRow>>,
}

#[derive(Debug, Clone, PartialEq)]
struct ImageRow {
    kind: String,
    encoding: String,
    ppi: u32,
}

/// List the images of every page; an empty survey (render everything) when
/// `pdfimages` fails.
pub(crate) fn survey(opts: &OcrOptions, pdf: &Path) -> Survey {
    let deadline = Instant::now() + Duration::from_secs(60);
    match run(Command::new(&opts.pdfimages).arg("-list").arg(pdf), deadline) {
        Ok(out) => parse_list(&String::from_utf8_lossy(&out)),
        Err(_) => Survey::default(),
    }
}

/// Parse `pdfimages -list` (poppler 22): `page num type width height color
/// comp bpc enc interp object ID x-ppi y-ppi size ratio`.
fn parse_list(text: &str) -> Survey {
    let mut pages: BTreeMap<u32, Vec<ImageRow>> = BTreeMap::new();
    for line in text.lines().skip(2) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let (Some(page), Some(kind), Some(encoding)) = (cols.first(), cols.get(2), cols.get(8)) else { continue };
        let Ok(page) = page.parse::<u32>() else { continue };
        let ppi = cols.get(12).and_then(|p| p.parse().ok()).unwrap_or(0);
        pages.entry(page).or_default().push(ImageRow { kind: kind.to_string(), encoding: encoding.to_string(), ppi });
    }
    Survey { pages }
}

impl Survey {
    /// The file extension `pdfimages -all` gives the page's one image, when
    /// the page is exactly one image tesseract can read at a usable resolution.
    fn single_image(&self, page: u32) -> Option<&'static str> {
        let [row] = self.pages.get(&page)?.as_slice() else { return None };
        if row.kind != "image" || row.ppi < MIN_STORED_DPI {
            return None;
        }
        match row.encoding.as_str() {
            "jpeg" => Some("jpg"),
            "image" => Some("png"),
            _ => None,
        }
    }
}

/// An image file of `page` in `dir`, taken out or rendered before `deadline`.
///
/// # Errors
/// The failure of the last program tried.
pub(crate) fn page_image(
    opts: &OcrOptions,
    pdf: &Path,
    dir: &Path,
    page: &PagePlan,
    survey: &Survey,
    deadline: Instant,
) -> Result<PathBuf, Failure> {
    let n = page.number.to_string();
    if !page.rotated
        && let Some(ext) = survey.single_image(page.number)
    {
        let prefix = dir.join(format!("img-{n}"));
        let mut cmd = Command::new(&opts.pdfimages);
        cmd.args(["-all", "-f", &n, "-l", &n]).arg(pdf).arg(&prefix);
        let file = dir.join(format!("img-{n}-000.{ext}"));
        if run(&mut cmd, deadline).is_ok() && file.exists() {
            return Ok(file);
        }
    }
    let prefix = dir.join(format!("page-{n}"));
    let mut cmd = Command::new(&opts.pdftoppm);
    cmd.args(["-r", &opts.dpi.to_string(), "-gray", "-png", "-singlefile", "-f", &n, "-l", &n]).arg(pdf).arg(&prefix);
    run(&mut cmd, deadline)?;
    let file = prefix.with_extension("png");
    if file.exists() { Ok(file) } else { Err(Failure::Failed(format!("pdftoppm wrote no image for page {n}"))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio
--------------------------------------------------------------------------------------------
   1     0 image    2482  3507  rgb     3   8  jpeg   no        14  0   300   300 1000K 3.9%
   2     1 image    2481  3507  rgb     3   8  jpeg   no         3  0   300   300  661K 2.6%
   2     2 stencil   100   100  -       1   1  ccitt  no         4  0   300   300    1K 0.1%
   3     3 image     200   300  gray    1   8  image  no         5  0    72    72   10K 9.0%
";

    #[test]
    fn a_page_that_is_one_image_is_taken_out_others_rendered() {
        let survey = parse_list(LIST);
        assert_eq!(survey.single_image(1), Some("jpg"));
        assert_eq!(survey.single_image(2), None, "an image plus a mask is rendered");
        assert_eq!(survey.single_image(3), None, "72 dpi is too coarse to read as stored");
        assert_eq!(survey.single_image(4), None, "a page without images is rendered");
    }
}
